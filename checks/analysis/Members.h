//===--- Members.h - What a class's methods may assume of its members -----===//
//
// Inference and training code often keeps the model and its device in a
// class: the constructor moves `model_` to `device_`, and predict() calls
// `model_->forward(input)`. A member is not a variable the per-function
// analysis follows, but when the class itself guarantees its value, every
// method (after construction) may assume it:
//
// - a fixed Device member: not public, written only by constructors (its
//   initialiser or an assignment there), its address never taken;
// - a fixed tensor member: not public (or public in a module class of the
//   main file that no code outside the class names), written only by
//   constructors (their
//   initialisers, or assignments in their bodies), never rebound
//   (`set_data`) or handed out by non-const reference elsewhere; its fact
//   is what every constructor leaves in it, when they agree (a device
//   given as a constructor parameter counts when it also initialises a
//   fixed Device member);
// - a fixed TensorOptions member: set only by the constructors'
//   initialisers (`opts_(torch::TensorOptions().dtype(torch::kFloat32)
//   .device(device))`), under the tensor member's visibility rule; what
//   their constants say (the dtype here) holds in every method;
// - a placed module member: not public, moved to a device by exactly one
//   move in each constructor, every constructor to the same device (a
//   constant, a fixed Device member, or the constructor parameter that
//   initialises one), and otherwise only used through calls that keep it
//   (forward, parameters(), train(), ...) in every method of the class.
//
// - an unregistered module member: a module class's member that every
//   constructor builds (a layer or a user module with parameters, on the
//   cpu in float32), that nothing registers, moves, replaces or hands out,
//   and that no code outside the class names. Module::to and the casts
//   walk only registered children and parameters (LibTorch's
//   nn/module.cpp), so it stays where it was built whatever its module
//   does: the classic forgotten register_module. A class that is no
//   module holds such a member the same way when nothing but forward()
//   and mode switches (eval(), train()) use it: nothing moves it;
// - a Device field read through an object (`cfg.device`), or a Device
//   member the constructors alone do not fix: a symbol for the field, which
//   may be cuda when some value this translation unit gives it may be.
//
// Anything else is unknown. Results are cached in the Session.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOR_TIDY_CHECKS_ANALYSIS_MEMBERS_H
#define TENSOR_TIDY_CHECKS_ANALYSIS_MEMBERS_H

#include "../ApiModel.h"
#include "Lattice.h"
#include "Session.h"
#include "clang/AST/DeclCXX.h"

namespace clang::tidy::tensor::analysis {

/// The member \p E names through `this` (`device_`, `this->model_`,
/// `model_->`), or null.
const FieldDecl *thisMember(const Expr *E);

/// The std::vector member of module handles that \p E is an element of,
/// through `this` (`layers_[i]`, `layers_.at(i)`, `layers_.front()`,
/// `layers_.back()`), or null.
const FieldDecl *moduleVectorElement(const Expr *E, const ApiModel &Api);

/// A fixed Device member's value: symbolic, named after the member; unknown
/// when \p F is not a fixed Device member.
DeviceFact fixedDeviceMember(Session &S, const FieldDecl *F,
                             const ApiModel &Api);

/// A Device field read through an object (`cfg.device`, `opts_->device`):
/// symbolic, named after the field. It may hold a cuda device unless every
/// value this translation unit gives it is a cpu constant and no code
/// outside it may write it (computeFieldDevice). Unknown when \p F is not a
/// Device field of a user class, or when the function \p In, where it is
/// read, writes it.
DeviceFact fieldDevice(Session &S, const FieldDecl *F, const FunctionDecl *In,
                       const ApiModel &Api);

/// Does \p Fn change the member \p F (through `this`) other than by
/// assigning it: take its address, bind it to a non-const reference or
/// hand it out as one, call a method of the user's on it, or rebind it
/// (set_data)?
bool writesMemberOutOfSight(const FieldDecl *F, const FunctionDecl *Fn,
                            const ApiModel &Api);

/// The device every constructor gives the tensor member \p F, as the method
/// \p In sees it: the symbol of the Device member (fixed, or read as a
/// field) that the same constructor parameter initialises
/// (`masks = torch::ones(n, device)` beside `device_(device)`). Unknown when
/// a constructor gives \p F another device, or the constructors name
/// different members. Whatever its visibility: a caller that followed the
/// construction knows the member's device, and this is the same value in
/// the terms \p In reads the Device member.
DeviceFact memberDeviceFromParameter(Session &S, const FieldDecl *F,
                                     const FunctionDecl *In,
                                     const ApiModel &Api);

/// What a fixed tensor member holds after construction; unknown when \p F
/// is not one, or the constructors disagree.
TensorFact fixedTensorMember(Session &S, const FieldDecl *F,
                             const ApiModel &Api);

/// The expressions that give the TensorOptions member \p F its value, one
/// per constructor (its initialiser, or the member's default initialiser),
/// when only they do: no method or constructor body assigns it, takes its
/// address or hands it out by non-const reference, and it is not public
/// (or public in a module class that no code outside the class names).
/// Empty otherwise, or when a constructor leaves it default-constructed.
llvm::ArrayRef<const Expr *>
fixedOptionsInitialisers(Session &S, const FieldDecl *F, const ApiModel &Api);

/// Where a placed module member is, with the constructor's move as origin;
/// unknown when \p F is not a placed module member.
ModuleFact placedModuleMember(Session &S, const FieldDecl *F,
                              const ApiModel &Api);

/// Whether the tensor member \p F of a module class holds, in every method
/// but its constructors, a parameter or buffer the class registered from a
/// cpu factory with at least one dimension (`w = register_parameter("w",
/// torch::randn({8, 8}))`), and nothing in the class, or outside it,
/// replaces it. Such a tensor is on its module's device and is no 0-dim
/// operand that ATen would let meet another device.
/// Cached in \p S.
bool registeredWithDimensions(Session &S, const FieldDecl *F,
                              const ApiModel &Api);

/// Where an unregistered module member is: the cpu and float32, with its
/// construction as origin (ModuleUnregistered in a module class,
/// ModuleCreated in another); unknown when \p F is not one.
ModuleFact unregisteredModuleMember(Session &S, const FieldDecl *F,
                                    const ApiModel &Api);

/// Where the layers of a std::vector member of a module class are when the
/// class only adds freshly built layers to it in its constructors and
/// calls them (`for (auto &c : convs) c(x)`, `convs[i](x)`), and nothing
/// registers, moves or hands them out: the cpu and float32, since
/// Module::to and the casts walk registered children only (the
/// std::vector-instead-of-ModuleList bug, pytorch/pytorch#1053). Unknown
/// when \p F is not such a member.
ModuleFact unregisteredModuleElements(Session &S, const FieldDecl *F,
                                      const ApiModel &Api);

/// A registered submodule: a module handle member that every constructor
/// sets from `register_module(...)` and that no method moves or sets again.
/// Module::to moves and casts it with its module.
bool isRegisteredSubmodule(Session &S, const FieldDecl *F, const ApiModel &Api);

/// The initialiser \p Ctor gives member \p F when its body then leaves
/// the member alone (`device_(device)`, and no assignment or non-const use
/// of device_ in the body); null otherwise.
const Expr *initialiserInEffect(const CXXConstructorDecl *Ctor,
                                const FieldDecl *F, const ApiModel &Api);

} // namespace clang::tidy::tensor::analysis

#endif // TENSOR_TIDY_CHECKS_ANALYSIS_MEMBERS_H
