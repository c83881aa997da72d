//===--- Modules.h - What a module holds when it is made ------------------===//
//
// A module's parameters have a device and a dtype from the moment it is
// built: LibTorch's layers create theirs on the cpu in float32, and so does
// a container of such layers (nn::Sequential(nn::Conv2d(...), ...)), and a
// user's module whose constructor only registers such layers and
// default-dtype parameters, and whose methods never cast it. Those are what
// this file knows; anything else (a layer passed in, a load, a cast, a
// factory with options) leaves the module unknown.
//
// A user module's input needs its parameters' dtype only when its forward()
// hands the input to a layer that computes in them (Linear, a convolution,
// a norm, a recurrent layer): forwardFeedsParameterLayer follows forward()
// with the input's dtype to find out.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOR_TIDY_CHECKS_ANALYSIS_MODULES_H
#define TENSOR_TIDY_CHECKS_ANALYSIS_MODULES_H

#include "../ApiModel.h"
#include "Lattice.h"
#include "Session.h"

namespace clang::tidy::tensor::analysis {

/// The module \p E makes, as a value of module handle type \p T: a
/// construction (`nn::Linear(4, 2)`, `Net()`, `nn::Sequential(a, b)`), or
/// std::make_shared of a module class. Created on the cpu in float32 (with
/// \p E as origin) when the rules above say so; unknown otherwise.
ModuleFact createdModule(Session &S, const Expr *E, QualType T,
                         const ApiModel &Api);

/// Whether \p E builds a new module that holds parameters of its own on
/// the cpu in float32 (createdModule's rules): a construction from sizes or
/// options, or std::make_shared of a module class; not a holder made from
/// an existing module (register_module's shared_ptr) or from nullptr.
bool buildsNewOnCpu(Session &S, const Expr *E, const ApiModel &Api);

/// The class of the layer that gets the input of the container \p E
/// constructs: the first module it is built from, or that module's own
/// first layer when it is a container too
/// (`nn::Sequential(Normalize(...), nn::Conv2d(...))` gives NormalizeImpl).
/// Null when E constructs no container, or one whose first argument is not
/// a module (a list of named modules, say).
const CXXRecordDecl *writtenFirstLayer(const Expr *E, const ApiModel &Api);

/// Whether \p E is a tensor factory call that makes a float32 tensor on the
/// cpu: no options, no dtype, no device (`torch::randn({4, 4})`).
bool defaultFloatFactory(const Expr *E, const ApiModel &Api);

/// Whether \p E makes an empty module holder (`nn::Linear fc{nullptr}`).
bool isEmptyHolder(const Expr *E);

/// Whether a module of class \p C holds parameters of its own when built:
/// LibTorch's parameterized layers, and a user module class whose
/// constructors register such layers or parameters (createdModule's rule).
/// False for activations, losses, containers and anything not known.
bool buildsParameters(Session &S, const CXXRecordDecl *C, const ApiModel &Api);

/// Whether \p Module's forward() passes its first tensor argument, with
/// dtype \p D unchanged, to a built-in layer member that computes in its
/// parameters' dtype.
bool forwardFeedsParameterLayer(Session &S, const CXXRecordDecl *Module,
                                DType D, ASTContext &Ctx, const ApiModel &Api);

/// Whether \p Module's forward() passes its first tensor argument, still on
/// device \p D (known or symbolic), to a member layer that computes with
/// parameters of its own: a built-in parameterized layer (a Sequential's first
/// layer counts), or a user module whose forward() does so in turn, or an op
/// that combines it with a parameter or buffer of the module that has
/// dimensions (registeredWithDimensions: `torch::matmul(x, w)`). Only then
/// does an input on \p D provably meet the module's parameters: a forward
/// that uses a 0-dim parameter (`x / temperature`), or none, runs on any
/// device, as ATen lets a 0-dim cpu tensor meet a cuda one.
bool forwardFeedsLayerOnItsDevice(Session &S, const CXXRecordDecl *Module,
                                  const DeviceFact &D, ASTContext &Ctx,
                                  const ApiModel &Api);

} // namespace clang::tidy::tensor::analysis

#endif // TENSOR_TIDY_CHECKS_ANALYSIS_MODULES_H
