//===--- DeviceDtypeAnalysis.h - Where tensors live, what they hold -------===//
//
// One flow-sensitive analysis per function, shared by the tensor-* checks:
// for every tensor and module value at every program point it computes the
// device and dtype (see Lattice.h), and it records the sites the checks
// judge (ops that combine tensors, module calls, matmuls) with the facts of
// their operands at that point. It never emits diagnostics.
//
// Calls into user code are followed with what the caller knows of their
// arguments (bounded context-sensitive analysis): a helper's result, and
// the sites inside it, are judged with the caller's facts bound to its
// parameters.
//
// A worklist over clang::CFG in reverse post-order (docs/design.md says why
// not the dataflow framework), with a cap on block visits and a work budget
// linear in the function's size: a function that hits either reports no
// sites at all.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOR_TIDY_CHECKS_ANALYSIS_DEVICEDTYPEANALYSIS_H
#define TENSOR_TIDY_CHECKS_ANALYSIS_DEVICEDTYPEANALYSIS_H

#include "../ApiModel.h"
#include "Environment.h"
#include "Lattice.h"
#include "llvm/ADT/SmallVector.h"
#include <memory>
#include <optional>
#include <vector>

namespace clang::tidy::tensor {

/// A tensor operand of a site and what was known of it there.
struct Operand {
  const Expr *E = nullptr;
  TensorFact Fact;
};

/// A place where the device or dtype rules of ATen apply.
struct Site {
  enum Kind : uint8_t {
    Combine,        // arithmetic, comparisons, add/matmul/cat/where/losses...
    ModuleCall,     // model->forward(x), model(x)
    FromBlob,       // torch::from_blob(buffer, sizes[, options])
    ClassIndices,   // a loss's target, read as int64 class indices
    Indices,        // gather's index, embedding's indices: int64 (or int32)
    CpuOnly,        // a tensor an op requires on the cpu
    TypedAccess,    // t.data_ptr<float>(), t.accessor<float, 2>()
    RegisteredCopy, // member = register_parameter(name, t).to(kCUDA)
    MixedValues,    // torch::tensor({0.f, 0.5}): values of two scalar types
    InPlaceCast,    // img.div_(255.0): the promoted result, then the object
    FloatingInput,  // correct.mean(): a reduction's input, which must float
  };
  Kind K = Combine;
  /// For Combine: matmul/mm/bmm/linear, which do not promote dtypes.
  bool NonPromoting = false;
  const Expr *Call = nullptr;
  const FunctionDecl *Callee = nullptr;
  /// The function whose body holds the site.
  const FunctionDecl *Function = nullptr;
  llvm::SmallVector<Operand, 3> Operands;
  // ModuleCall only: the module expression and what was known of it.
  const Expr *ModuleExpr = nullptr;
  ModuleFact Module;
  /// The module's class (LinearImpl, a user module, torch::jit::Module).
  const CXXRecordDecl *ModuleClass = nullptr;
  /// ModuleCall only: the class of the layer that gets the input: the
  /// module's own, or a Sequential's first layer (every layer of a
  /// container computes where its input came).
  const CXXRecordDecl *inputLayer() const {
    return Module.FirstLayer ? Module.FirstLayer : ModuleClass;
  }
  /// TypedAccess only: the element type asked for; the operand is the
  /// tensor.
  /// FromBlob only: the C++ type of the buffer's elements; the first
  /// operand is the buffer, with the tensor from_blob makes of it as its
  /// fact.
  QualType BufferElement;
  /// FromBlob only: where the buffer's memory is, when the code shows it.
  /// Host: a container's data(), an array, an image's pixels; the second
  /// operand is that expression, on the cpu. Tensor: a tensor's data_ptr();
  /// the second operand is that tensor.
  enum class Memory : uint8_t { Unknown, Host, Tensor };
  Memory BufferMemory = Memory::Unknown;
  /// FromBlob only: the buffer is an OpenCV image's pixels (`image.data`),
  /// the image variable, and the dtype of its elements when every write to
  /// it agrees (Images.h).
  const VarDecl *Image = nullptr;
  std::optional<DType> ImageElement;
  /// ClassIndices only: operands are the target, then the input; a target
  /// of the input's rank holds probabilities instead (cross_entropy).
  bool ProbabilitiesWhenSameShape = false;
  /// Indices only: the one operand is the index; ATen takes int32 as well
  /// as int64 there.
  bool Int32Indices = false;
  /// CpuOnly only: the op's name for its one operand ("lengths").
  /// RegisteredCopy only: what was registered ("parameter", "buffer").
  const char *ArgumentName = "";
  /// RegisteredCopy only: a class member is assigned (in any method, or in
  /// a constructor's initialiser) the conversion of what a registration
  /// returns;
  /// Call is the conversion, the operands are the tensor registered and
  /// the conversion's result. The registration returns the registered
  /// tensor, and a conversion that changes its device or dtype returns a
  /// copy: the member is not what the module moves, trains and saves.
  const CXXMemberCallExpr *Registration = nullptr;
};

struct FunctionFacts;

/// A call into user code that the analysis followed with what the caller
/// knew of the arguments (a tensor's device, a module's dtype, a Device
/// constant): the callee analysed in that context.
struct FollowedCall {
  const CallExpr *Call = nullptr;
  const FunctionDecl *Callee = nullptr;
  /// The callee's facts in this call's context (owned by the cache).
  const FunctionFacts *Facts = nullptr;
};

/// The analysis' result for one function body.
struct FunctionFacts {
  std::vector<Site> Sites;
  /// What the function returns: the join of its returned tensors' facts;
  /// unreached when it returns no tensor.
  TensorFact Returns;
  /// What the function returns when it returns a module handle (a helper
  /// that builds a Sequential); unreached otherwise.
  ModuleFact ReturnsModule;
  /// What the function returns when it returns a std::tuple or std::pair
  /// (`return std::make_tuple(h, c);`): the facts of its elements, joined
  /// over its returns; nullopt when it returns none or one is not known.
  /// For a struct with tensor fields (`return batch;`), the facts of those
  /// slots in declaration order (tensorSlots, Escapes.h).
  std::optional<llvm::SmallVector<TensorFact, 4>> ReturnsTuple;
  /// The calls it makes that were followed in a context of their own, at
  /// the fixed point: a site in the callee may be provable only there.
  std::vector<FollowedCall> Calls;
  /// For a constructor: the facts of its class's tensor members that it
  /// sets (in its initialisers or its body), at its exit. For a method of a
  /// class whose tensor slots the analysis follows (tensorSlots,
  /// Escapes.h): the facts of those slots at its exit. Keyed as `this`'s
  /// (Key::Var null).
  llvm::SmallVector<std::pair<analysis::Key, TensorFact>, 2> MemberExits;
  /// The fact MemberExits holds for field \p F (element \p Element of a
  /// tuple field); unknown when it holds none.
  TensorFact memberExit(const FieldDecl *F, int Element = -1) const {
    for (const auto &[Member, Fact] : MemberExits)
      if (Member.Field == F && Member.Element == Element)
        return Fact;
    return TensorFact::unknown();
  }
  /// False when the analysis gave up (CFG not buildable, visit cap hit):
  /// then Sites is empty, and the checks stay silent.
  bool Complete = false;
};

namespace analysis {
class Session;
}

/// Computes and caches FunctionFacts per function body, in its Session (one
/// translation unit's state; Session.h). The checks of a translation unit
/// share one instance (shared()), and the cache is keyed by the API model's
/// configuration, so that every check configured alike shares one analysis
/// per function.
class DeviceDtypeAnalysis {
public:
  DeviceDtypeAnalysis();
  ~DeviceDtypeAnalysis();
  DeviceDtypeAnalysis(const DeviceDtypeAnalysis &) = delete;
  DeviceDtypeAnalysis &operator=(const DeviceDtypeAnalysis &) = delete;

  /// The analysis shared by the checks created for one translation unit
  /// with \p Owner (their ClangTidyContext): alive while one of them holds
  /// it. clang-tidy and clangd create a translation unit's checks together,
  /// and clangd builds ASTs on several threads, each with a context of its
  /// own.
  static std::shared_ptr<DeviceDtypeAnalysis> shared(const void *Owner);

  /// The facts of \p Fn's body (a function's or lambda's), knowing nothing
  /// of its parameters but that Device and ScalarType parameters are
  /// symbolic. Calls to user functions with a body (analysis::userCallee)
  /// are followed: their results are what the callee returns when the
  /// caller's arguments are bound to its parameters, up to MaxCallDepth
  /// nested calls.
  const FunctionFacts &analyze(const FunctionDecl *Fn, ASTContext &Ctx,
                               const ApiModel &Api);
  /// Forget everything: called at the start of each translation unit.
  void reset();
  /// Whether factories without a dtype give float32 in this translation
  /// unit: false when it calls set_default_dtype anywhere (the default is
  /// process state the analysis does not follow). True after reset().
  void setDefaultFloatKnown(bool Known);
  /// Whether setDefaultFloatKnown was called since reset(): the checks that
  /// share the analysis decide it once per translation unit.
  bool defaultFloatDecided() const;
  /// The state behind it, for the checks' own questions to the analysis
  /// (Modules.h, Escapes.h).
  analysis::Session &session() { return *State; }

  /// Block visits allowed per CFG block before the analysis gives up.
  static constexpr unsigned MaxVisitsPerBlock = 8;
  /// The work budget, in environment entries copied or joined: BaseWork
  /// plus WorkPerElement per CFG element. Typical functions use a small
  /// fraction; past it the analysis gives up, which keeps it linear.
  static constexpr uint64_t BaseWork = 50000;
  static constexpr uint64_t WorkPerElement = 16;
  /// Calls followed into callees, nested: past this depth a call's result
  /// is unknown.
  static constexpr unsigned MaxCallDepth = 3;
  /// Callee analyses in a caller's context per translation unit: past this,
  /// calls are analysed without one (the cost stays bounded by the TU).
  static constexpr unsigned MaxContexts = 512;

private:
  std::unique_ptr<analysis::Session> State;
};

} // namespace clang::tidy::tensor

#endif // TENSOR_TIDY_CHECKS_ANALYSIS_DEVICEDTYPEANALYSIS_H
