// The user's stack at a violation: the calling thread's return addresses,
// symbolized with elfutils' libdw (DWARF line tables and inline chains, ELF
// symbol tables where there is no debug info), one logical frame per inlined
// call as addr2line -i shows them, and classified as the user's code or a
// library's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace tensor_run {

/// What kind of object a frame's code is in.
enum class ObjectKind {
  Program,   // the executable or a library of the user's
  LibTorch,  // libtorch*.so, libc10*.so
  System,    // anything under /lib or /usr/lib: libc, libstdc++, libgomp...
  Self,      // tensor-run's own library
};

struct Frame {
  std::uintptr_t pc = 0;  // the call instruction's address
  std::string object;     // path of the ELF object holding the code
  ObjectKind kind = ObjectKind::Program;
  std::uintptr_t offset = 0;  // pc - the object's load address
  std::string function;       // demangled name, "" when unknown
  std::string file;           // absolute source path, "" without debug info
  unsigned line = 0;
  unsigned column = 0;
  bool inlined = false;  // inlined into the next (outer) frame
};

/// The calling thread's return addresses, innermost first, at most 256.
std::vector<void*> capture_stack();

/// The logical frames of a captured stack, innermost first, without
/// tensor-run's own frames. Thread-safe; results per address are cached.
std::vector<Frame> symbolize(const std::vector<void*>& stack);

/// The qualified name of a demangled function signature, without its return
/// type, parameters and cv-qualifiers:
///   "void torch::nn::Module::to_impl<c10::Device&>(c10::Device&)"
///     -> "torch::nn::Module::to_impl<c10::Device&>"
///   "(anonymous namespace)::Net::forward(at::Tensor) const"
///     -> "(anonymous namespace)::Net::forward"
std::string qualified_name(const std::string& signature);

/// The last component of a qualified name, without template arguments:
/// "torch::nn::SequentialImpl::forward<at::Tensor>" -> "forward".
std::string unqualified_name(const std::string& qualified);

/// A demangled signature short enough for a record or a message, as clang
/// elides template arguments in its diagnostics: the argument lists nested
/// in another one become `<...>`; when the result is still longer than
/// `max_length`, every template argument list does. What remains names the
/// function and its parameters' outer types:
///   "void train<torch::data::StatelessDataLoader<torch::data::datasets::
///    MapDataset<...>, ...> >(Net&, torch::data::StatelessDataLoader<...>&)"
///     -> "void train<torch::data::StatelessDataLoader<...> >(Net&, ...)"
/// Operators (`operator<<`, `operator->`) are not template lists. The full
/// name stays in the frame: placement (Sites.h) reads it.
std::string short_function_name(const std::string& signature, std::size_t max_length = 160);

/// True for a frame of the user's code: in the program (not a library of
/// LibTorch's, the system's or tensor-run's), and not LibTorch's or the
/// standard library's header code inlined or instantiated there (told by
/// its source file under an include directory, or without debug info by
/// its namespace: torch::, at::, c10::, caffe2::, std::, __gnu_cxx::).
bool is_user_frame(const Frame& frame);

/// Classifies an object by path (pure, for tests): `self` is tensor-run's
/// own library path.
ObjectKind classify_object(const std::string& path, const std::string& self);

}  // namespace tensor_run
