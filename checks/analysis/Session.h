//===--- Session.h - The analysis' state for one translation unit ---------===//
//
// Everything the device/dtype analysis keeps beyond one function's analysis:
// the facts of each function body (per calling context), the summaries of
// which parameters a callee may change, what a class's members hold, what a
// module class builds. All of it is keyed by declarations of one AST, so it
// lives exactly as long as one translation unit's checks: DeviceDtypeAnalysis
// owns one Session, and the checks of a translation unit share that analysis
// (SiteCheck). The functions of Escapes.h, Members.h and Modules.h take the
// Session they read and fill, as clang's dataflow models take their
// environment: no state outlives its owner.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOR_TIDY_CHECKS_ANALYSIS_SESSION_H
#define TENSOR_TIDY_CHECKS_ANALYSIS_SESSION_H

#include "Lattice.h"
#include "clang/AST/DeclCXX.h"
#include "llvm/ADT/DenseSet.h"
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>

namespace clang::tidy::tensor {
struct FunctionFacts;

namespace analysis {

/// Escapes.cpp: per function and API configuration, the parameters (and a
/// lambda's captured variables) it may change (nullopt while being computed: a
/// recursive call), and per method whether it may change its object.
struct EscapeState {
  std::map<std::pair<const FunctionDecl *, std::string>,
           std::optional<llvm::DenseSet<const ValueDecl *>>>
      Changed;
  std::map<std::pair<const FunctionDecl *, std::string>, std::optional<bool>>
      ChangesThis;
  // followsFieldWrites, per method (nullopt while being computed).
  std::map<std::pair<const FunctionDecl *, std::string>, std::optional<bool>>
      FollowsWrites;
  // rebindsParam: the parameters a body rebinds in place (set_data, set_).
  std::map<std::pair<const FunctionDecl *, std::string>,
           llvm::DenseSet<const ParmVarDecl *>>
      Rebound;
  unsigned Depth = 0;
};

/// Members.cpp: a Device field's value as a symbol, and the functions that
/// write it (computeFieldDevice).
struct FieldDevice {
  DeviceFact Value = DeviceFact::unknown();
  llvm::SmallVector<const FunctionDecl *, 4> Writers;
};

/// Members.cpp: what a member holds in every method but its constructors,
/// per member and API configuration.
struct MemberState {
  using Key = std::pair<const FieldDecl *, std::string>;
  std::map<Key, DeviceFact> Devices;       // fixedDeviceMember
  std::map<Key, FieldDevice> FieldDevices; // fieldDevice
  // Set when a computation met an analysis that could not run then (in
  // progress, or too deeply nested): its unknown is not cached.
  bool Retry = false;
  std::map<Key, ModuleFact> Modules;              // placedModuleMember
  std::map<Key, ModuleFact> Unregistered;         // unregisteredModuleMember
  std::map<Key, ModuleFact> UnregisteredElements; // ...ModuleElements
  std::map<Key, TensorFact> Tensors;
  std::map<Key, bool> Registered;     // isRegisteredSubmodule
  std::map<Key, bool> WithDimensions; // registeredWithDimensions
  std::map<Key, llvm::SmallVector<const Expr *, 2>>
      OptionsInitialisers; // fixedOptionsInitialisers
};

/// Modules.cpp: what a user module class's constructors build.
struct ModuleDefaults {
  bool Float32 = false; // every parameter it makes is float32
  bool OnCpu = false;   // and on the cpu (no move in a constructor)
};
struct ModuleState {
  std::map<std::pair<const CXXRecordDecl *, std::string>, ModuleDefaults>
      Classes;
  std::map<std::tuple<const CXXRecordDecl *, std::string, std::string>, bool>
      Feeds; // forwardFeeds*: per module, seed and configuration
  unsigned Depth = 0;
};

/// DeviceDtypeAnalysis.cpp: the facts of each function body, per API
/// configuration and calling context (null while being analysed).
struct FactsState {
  std::map<std::tuple<const FunctionDecl *, std::string, std::string>,
           std::unique_ptr<FunctionFacts>>
      Facts;
  unsigned Depth = 0;    // analyses in progress, nested
  unsigned Contexts = 0; // analyses with a context so far
};

/// The analysis' state for one translation unit.
class Session {
public:
  Session();
  ~Session();
  Session(const Session &) = delete;
  Session &operator=(const Session &) = delete;

  FactsState Functions;
  EscapeState Escapes;
  MemberState Members;
  ModuleState Modules;
  /// Whether factories without a dtype give float32 in this translation
  /// unit (DeviceDtypeAnalysis::setDefaultFloatKnown), and whether that
  /// was decided yet.
  bool DefaultFloatKnown = true;
  bool DefaultFloatDecided = false;

  /// The dtype of a factory without dtype= and of a float op's integer
  /// inputs: float32, unless the unit changes the default.
  DTypeFact defaultFloat() const {
    return DefaultFloatKnown ? DTypeFact::known(DType::Float32)
                             : DTypeFact::unknown();
  }

  /// Forgets everything: a new translation unit starts.
  void reset();
};

} // namespace analysis
} // namespace clang::tidy::tensor

#endif // TENSOR_TIDY_CHECKS_ANALYSIS_SESSION_H
