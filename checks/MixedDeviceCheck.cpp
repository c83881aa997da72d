//===--- MixedDeviceCheck.cpp - tensor-mixed-device -----------------------===//

#include "MixedDeviceCheck.h"
#include "clang/AST/ASTContext.h"

namespace clang::tidy::tensor {

bool MixedDeviceCheck::checkSite(const Site &S, ASTContext &Ctx) {
  if (S.K == Site::FromBlob)
    return checkFromBlob(S, Ctx);
  if (S.K == Site::CpuOnly)
    return checkCpuOnly(S, Ctx);
  if (S.K == Site::TypedAccess)
    return checkHostAccessor(S, Ctx);
  if (S.K == Site::RegisteredCopy)
    return checkRegisteredCopy(S, Ctx);
  if (S.K != Site::Combine)
    return false;
  // ATen moves a 0-dim cpu tensor to the others' device: only an operand
  // that provably has dimensions can clash from the cpu.
  auto Counts = [](const Operand &O) { return !O.Fact.mayBeCpuScalar(); };
  for (size_t I = 0; I < S.Operands.size(); ++I)
    for (size_t J = I + 1; J < S.Operands.size(); ++J) {
      const Operand &A = S.Operands[I], &B = S.Operands[J];
      if (!Counts(A) || !Counts(B) ||
          !provablyDifferent(A.Fact.Device, B.Fact.Device))
        continue;
      SourceLocation Loc =
          Ctx.getSourceManager().getExpansionLoc(S.Call->getExprLoc());
      diag(Loc, "%0 combines tensors on different devices: %1 is on %2 and "
                "%3 is on %4")
          << calleeName(S) << nameOf(A.E, Ctx) << A.Fact.Device.describe()
          << nameOf(B.E, Ctx) << B.Fact.Device.describe();
      noteDeviceOrigin(A, Ctx);
      noteDeviceOrigin(B, Ctx);
      return true; // one warning per site
    }
  return false;
}

// `member = register_parameter(name, t).to(kCUDA)`: Module::register_parameter
// returns the registered tensor, and a conversion to another device returns
// a copy (pytorch/pytorch#39062). A device that may be cuda counts, as
// for any mix: on a GPU machine the member is the copy.
bool MixedDeviceCheck::checkRegisteredCopy(const Site &S, ASTContext &Ctx) {
  const DeviceFact &Registered = S.Operands[0].Fact.Device,
                   &Copy = S.Operands[1].Fact.Device;
  if (!provablyDifferent(Registered, Copy))
    return false;
  reportRegisteredCopy(S, Ctx, Copy.describe(), Registered.describe(),
                       /*Device=*/true);
  return true;
}

// ATen reads a packed sequence's lengths and batch_sizes on the host
// (PackedSequence.cpp's checkLongTensor): on another device they are an
// error whatever the other tensors' device.
bool MixedDeviceCheck::checkCpuOnly(const Site &S, ASTContext &Ctx) {
  if (S.Operands.size() != 1 ||
      !provablyDifferent(S.Operands[0].Fact.Device, DeviceFact::cpu()))
    return false;
  const Operand &O = S.Operands[0];
  diag(Ctx.getSourceManager().getExpansionLoc(O.E->getBeginLoc()),
       "%0 takes its '%1' on the cpu, but %2 is on %3")
      << calleeName(S) << S.ArgumentName << nameOf(O.E, Ctx)
      << O.Fact.Device.describe();
  noteDeviceOrigin(O, Ctx);
  return true;
}

// TensorBase::accessor<T, N>() checks the dtype and the rank, not the
// device: the TensorAccessor it returns indexes the data pointer on the
// host, which for a cuda tensor is device memory (a crash, or garbage).
// The packed accessors are the ones made for kernels.
bool MixedDeviceCheck::checkHostAccessor(const Site &S, ASTContext &Ctx) {
  if (S.Operands.size() != 1 ||
      !Api.isHostAccessor(dyn_cast_or_null<CXXMethodDecl>(S.Callee)) ||
      !provablyDifferent(S.Operands[0].Fact.Device, DeviceFact::cpu()))
    return false;
  const Operand &O = S.Operands[0];
  diag(Ctx.getSourceManager().getExpansionLoc(S.Call->getExprLoc()),
       "'accessor' reads %0 from the host, but it is on %1; copy it to the "
       "cpu first, or use a packed accessor in a kernel")
      << nameOf(O.E, Ctx) << O.Fact.Device.describe();
  noteDeviceOrigin(O, Ctx);
  return true;
}

// from_blob does not copy: the tensor it makes reads the buffer's memory
// as memory of the tensor's device. A cuda tensor over host memory fails
// in LibTorch's getDeviceFromPtr or reads out of bounds in its kernels; a
// cpu tensor over a cuda tensor's memory crashes at its first read.
bool MixedDeviceCheck::checkFromBlob(const Site &S, ASTContext &Ctx) {
  if (S.BufferMemory == Site::Memory::Unknown || S.Operands.size() != 2)
    return false;
  const Operand &Made = S.Operands[0], &Memory = S.Operands[1];
  // A cpu tensor may be pinned, and a cuda tensor over pinned memory is
  // fine: only a cuda tensor's memory counts among tensors.
  if (S.BufferMemory == Site::Memory::Tensor &&
      !(Memory.Fact.Device.isKnown() && Memory.Fact.Device.IsCuda))
    return false;
  if (!provablyDifferent(Made.Fact.Device, Memory.Fact.Device))
    return false;
  const SourceManager &SM = Ctx.getSourceManager();
  if (S.BufferMemory == Site::Memory::Host)
    diag(SM.getExpansionLoc(Made.E->getBeginLoc()),
         "from_blob wraps host memory %1 as a tensor on %0; it does not "
         "copy (wrap it on the cpu, then move the tensor)")
        << Made.Fact.Device.describe() << nameOf(Made.E, Ctx);
  else
    diag(SM.getExpansionLoc(Made.E->getBeginLoc()),
         "from_blob wraps %1, memory of %2 on %3, as a tensor on %0; it "
         "does not copy")
        << Made.Fact.Device.describe() << nameOf(Made.E, Ctx)
        << nameOf(Memory.E, Ctx) << Memory.Fact.Device.describe();
  if (const Expr *Named = fromBlobOptions(S))
    diag(SM.getExpansionLoc(Named->getBeginLoc()), "%0 is asked for here",
         DiagnosticIDs::Note)
        << Made.Fact.Device.describe();
  else
    diag(SM.getExpansionLoc(S.Call->getExprLoc()), "no device given: the cpu",
         DiagnosticIDs::Note);
  if (S.BufferMemory == Site::Memory::Tensor)
    noteDeviceOrigin(Memory, Ctx);
  return true;
}

} // namespace clang::tidy::tensor
