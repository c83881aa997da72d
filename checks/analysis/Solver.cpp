//===--- Solver.cpp - The worklist over the CFG ---------------------------===//
//
// Runs the transfer functions over a function's CFG to the fixed point,
// then replays each block once to record the sites with the facts that hold
// there. The work is bounded (DeviceDtypeAnalysis.h): past the bounds the
// function is given up, and the checks stay silent on it.
//
//===----------------------------------------------------------------------===//

#include "FunctionAnalyzer.h"
#include "Loops.h"
#include "Members.h"
#include "clang/Analysis/CFG.h"
#include "clang/Analysis/FlowSensitive/DataflowWorklist.h"

namespace clang::tidy::tensor::analysis {

FunctionFacts FunctionAnalyzer::run() {
  FunctionFacts Result;
  const Stmt *FnBody = Fn->getBody();
  if (!FnBody || Fn->isInvalidDecl() || Fn->isDependentContext())
    return Result;
  CFG::BuildOptions Opts;
  Opts.AddImplicitDtors = false;
  Opts.AddTemporaryDtors = false;
  Opts.AddCXXDefaultInitExprInCtors = false;
  // A constructor's member initialisers, for its tensor members.
  Opts.AddInitializers = true;
  // Lifetime ends let the environments forget variables that went out of
  // scope, which keeps them small in long functions.
  Opts.AddLifetime = true;
  // Branches whose condition is a constant (`if (kRestoreFromCheckpoint)`
  // with `const bool kRestoreFromCheckpoint = false;`) never run: their
  // blocks are unreachable, as in clang's own flow-sensitive warnings.
  Opts.PruneTriviallyFalseEdges = true;
  std::unique_ptr<CFG> G =
      CFG::buildCFG(Fn, const_cast<Stmt *>(FnBody), &Ctx, Opts);
  if (!G)
    return Result;
  Body = scanBody(State, Fn, Api);
  if (const auto *MD = dyn_cast<CXXMethodDecl>(Fn);
      MD && !MD->isStatic() && !MD->getParent()->isLambda())
    ThisFields = tensorSlots(Ctx.getRecordType(MD->getParent()), Api);

  // Parameters: tensors and modules unknown, devices and dtypes symbolic.
  Env Entry;
  Entry.Reached = true;
  for (const ParmVarDecl *P : Fn->parameters()) {
    QualType T = P->getType().getNonReferenceType();
    if (isDeviceLike(Api, T))
      Entry.Devices[P] = DeviceFact::symbol(P, true);
    else if (isDTypeLike(Api, T))
      Entry.DTypes[P] = DTypeFact::symbol(P);
  }
  if (Seed)
    Entry.overlay(*Seed);
  // A method's object: its tensor fields hold what the caller bound, or
  // else what the class keeps in them (fixedTensorMember).
  if (!isa<CXXConstructorDecl>(Fn))
    for (const TensorSlot &Slot : ThisFields)
      if (!Entry.Tensors.count(Slot.of(nullptr)))
        Entry.Tensors[Slot.of(nullptr)] =
            Slot.Element < 0 ? fixedTensorMember(State, Slot.Field, Api)
                             : TensorFact::unknown();

  std::vector<Env> Out(G->getNumBlockIDs());
  std::vector<unsigned> Visits(G->getNumBlockIDs(), 0);
  // Copying and joining environments costs their size; a function whose
  // environments are large at many blocks would cost size x blocks. A work
  // budget linear in the function's size bounds it: past the budget the
  // analysis gives up on the function, like the per-block visit cap.
  uint64_t Elements = 0;
  for (const CFGBlock *B : *G)
    Elements += B->size() + 1;
  const uint64_t Budget = DeviceDtypeAnalysis::BaseWork +
                          DeviceDtypeAnalysis::WorkPerElement * Elements;
  uint64_t Work = 0;
  auto InOf = [&](const CFGBlock *B) {
    Env In;
    if (B == &G->getEntry())
      return Entry;
    for (const CFGBlock::AdjacentBlock &P : B->preds())
      if (const CFGBlock *PB = P.getReachableBlock()) {
        Work += Out[PB->getBlockID()].size() + 1;
        joinInto(In, Out[PB->getBlockID()]);
      }
    return In;
  };
  auto RunBlock = [&](const CFGBlock *B) {
    EffectsApplied.clear();
    for (const CFGElement &El : *B) {
      if (std::optional<CFGStmt> CS = El.getAs<CFGStmt>())
        transfer(CS->getStmt());
      else if (std::optional<CFGInitializer> CI = El.getAs<CFGInitializer>())
        initialize(CI->getInitializer());
      else if (std::optional<CFGLifetimeEnds> LE = El.getAs<CFGLifetimeEnds>())
        forget(LE->getVarDecl());
    }
  };

  // Blocks in reverse post-order (clang's ForwardDataflowWorklist), so a
  // block usually runs after all its predecessors outside loops.
  PostOrderCFGView Order(G.get());
  ForwardDataflowWorklist Worklist(*G, &Order);
  Worklist.enqueueBlock(&G->getEntry());
  while (const CFGBlock *B = Worklist.dequeue()) {
    if (++Visits[B->getBlockID()] > DeviceDtypeAnalysis::MaxVisitsPerBlock ||
        Work > Budget)
      return Result; // gave up: Complete stays false
    Cur = InOf(B);
    if (!Cur.Reached)
      continue;
    RunBlock(B);
    if (Cur == Out[B->getBlockID()])
      continue;
    Out[B->getBlockID()] = std::move(Cur);
    Worklist.enqueueSuccessors(B);
  }

  // The first iteration of each loop (Loops.h): the blocks in loops
  // replayed once in reverse post-order, without the back edges, from the
  // facts before the loop. An edge that leaves a loop carries the fixed
  // point's facts, which hold after any number of iterations.
  LoopNest Loops(*G, Order);
  std::vector<Env> FirstIn, FirstOut;
  // Past the work budget the replay is dropped, not the function: the
  // fixed point's facts stand alone.
  bool Replayed = !Loops.empty();
  if (Replayed) {
    FirstIn.resize(G->getNumBlockIDs());
    FirstOut.resize(G->getNumBlockIDs());
    for (const CFGBlock *B : Order) {
      if (!Loops.inLoop(B))
        continue;
      Env In;
      for (const CFGBlock::AdjacentBlock &P : B->preds()) {
        const CFGBlock *PB = P.getReachableBlock();
        if (!PB || Loops.isBackEdge(PB, B))
          continue;
        const bool Fixed = !Loops.inLoop(PB) || Loops.leavesLoop(PB, B);
        const Env &From =
            Fixed ? Out[PB->getBlockID()] : FirstOut[PB->getBlockID()];
        Work += From.size() + 1;
        joinInto(In, From);
      }
      if (Work > Budget) {
        Replayed = false;
        break;
      }
      FirstIn[B->getBlockID()] = In;
      Cur = std::move(In);
      if (Cur.Reached)
        RunBlock(B);
      FirstOut[B->getBlockID()] = std::move(Cur);
    }
  }

  // Final pass: replay each reached block once from its fixed point and
  // record the sites with the facts that hold there. A block that every
  // first iteration of its loops runs is replayed from the first
  // iteration's facts instead: they hold on fewer paths, so they say as
  // much or more, and a site they prove fails in every run that gets
  // there. Returns are joined in this pass only (visit()), and a return's
  // block leads to the exit, never back into a loop: what a function
  // returns is always the fixed point's join.
  Recording = true;
  for (const CFGBlock *B : *G) {
    if (Replayed && Loops.firstIterationRuns(B) &&
        FirstIn[B->getBlockID()].Reached)
      Cur = FirstIn[B->getBlockID()];
    else
      Cur = InOf(B);
    if (Cur.Reached)
      RunBlock(B);
  }
  // A constructor leaves its class's tensor members as they are at its
  // exit, and so does a method that follows its object's fields.
  if (isa<CXXConstructorDecl>(Fn) || !ThisFields.empty())
    if (const Env &Exit = Out[G->getExit().getBlockID()]; Exit.Reached)
      for (const auto &[K, F] : Exit.Tensors)
        if (!K.Var && K.Field)
          Result.MemberExits.push_back({K, F});
  Result.Sites = std::move(Sites);
  Result.Calls = std::move(Calls);
  Result.Returns = Returns;
  Result.ReturnsModule = ReturnsModule;
  if (!TupleReturnUnknown)
    Result.ReturnsTuple = ReturnsTuple;
  Result.Complete = true;
  return Result;
}

} // namespace clang::tidy::tensor::analysis
