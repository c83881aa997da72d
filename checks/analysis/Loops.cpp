//===--- Loops.cpp - The loops of a CFG, for first-iteration facts --------===//

#include "Loops.h"
#include "clang/Analysis/Analyses/PostOrderCFGView.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

namespace clang::tidy::tensor::analysis {

namespace {
// Past these sizes the replay is not worth its cost (the bit sets are
// blocks x loop blocks); the solver keeps its fixed point alone.
constexpr unsigned MaxBlocks = 8192;
constexpr unsigned MaxLoopBlocks = 1024;
} // namespace

LoopNest::LoopNest(const CFG &G, const PostOrderCFGView &View) {
  const unsigned N = G.getNumBlockIDs();
  if (N > MaxBlocks)
    return;
  Rpo.assign(N, -1);
  Innermost.assign(N, -1);
  for (const CFGBlock *B : View) {
    Rpo[B->getBlockID()] = static_cast<int>(Order.size());
    Order.push_back(B);
  }

  // One loop per back edge target: the blocks that reach one of its back
  // edges without passing it.
  llvm::DenseMap<const CFGBlock *, unsigned> LoopIndex;
  for (const CFGBlock *B : Order)
    for (const CFGBlock::AdjacentBlock &S : B->succs()) {
      const CFGBlock *H = S.getReachableBlock();
      if (!H || !isBackEdge(B, H))
        continue;
      auto [It, New] = LoopIndex.try_emplace(H, Loops.size());
      if (New) {
        Loops.push_back({H, llvm::BitVector(N), -1, llvm::BitVector(N)});
        Loops.back().Blocks.set(H->getBlockID());
      }
      Loop &L = Loops[It->second];
      llvm::SmallVector<const CFGBlock *, 16> Stack{B};
      while (!Stack.empty()) {
        const CFGBlock *X = Stack.pop_back_val();
        if (L.Blocks.test(X->getBlockID()))
          continue;
        // The entry reaches X without passing H: H does not dominate the
        // back edge, the loop is irreducible. Give up on the whole CFG.
        if (X == &G.getEntry()) {
          Loops.clear();
          return;
        }
        L.Blocks.set(X->getBlockID());
        for (const CFGBlock::AdjacentBlock &P : X->preds())
          if (const CFGBlock *PB = P.getReachableBlock();
              PB && Rpo[PB->getBlockID()] >= 0)
            Stack.push_back(PB);
      }
    }
  if (Loops.empty())
    return;

  // Nesting: a loop's parent is the smallest other loop holding its head;
  // a block's innermost loop the smallest holding it.
  std::vector<unsigned> Size(Loops.size());
  for (unsigned I = 0; I < Loops.size(); ++I)
    Size[I] = Loops[I].Blocks.count();
  auto Smaller = [&](int Current, unsigned Candidate) {
    return Current < 0 || Size[Candidate] < Size[Current];
  };
  for (unsigned I = 0; I < Loops.size(); ++I) {
    const unsigned HeadID = Loops[I].Head->getBlockID();
    for (unsigned J = 0; J < Loops.size(); ++J)
      if (J != I && Loops[J].Blocks.test(HeadID) && Smaller(Loops[I].Parent, J))
        Loops[I].Parent = static_cast<int>(J);
    for (unsigned ID : Loops[I].Blocks.set_bits())
      if (Smaller(Innermost[ID], I))
        Innermost[ID] = static_cast<int>(I);
  }

  std::vector<int> LoopOfHead(N, -1);
  for (unsigned I = 0; I < Loops.size(); ++I)
    LoopOfHead[Loops[I].Head->getBlockID()] = static_cast<int>(I);
  for (Loop &L : Loops)
    computeUnconditional(L, LoopOfHead);
  // An enclosing loop's head comes first in reverse post-order (it
  // dominates the inner one's), so parents are settled before children.
  std::vector<unsigned> ByHead(Loops.size());
  for (unsigned I = 0; I < Loops.size(); ++I)
    ByHead[I] = I;
  llvm::sort(ByHead, [&](unsigned A, unsigned B) {
    return Rpo[Loops[A].Head->getBlockID()] < Rpo[Loops[B].Head->getBlockID()];
  });
  for (unsigned I : ByHead) {
    Loop &L = Loops[I];
    if (L.Parent >= 0) {
      const Loop &P = Loops[L.Parent];
      L.Reached = P.Reached && P.Unconditional.test(L.Head->getBlockID());
    }
  }
}

// Must(B): the blocks on every path from B to the end of the iteration (a
// back edge) within L, B included. A path that leaves L does not count; if
// every path from B leaves, B's set is all of L. An inner loop counts as
// one step from its head to the blocks it exits to.
void LoopNest::computeUnconditional(Loop &L,
                                    const std::vector<int> &LoopOfHead) {
  const unsigned N = Rpo.size();
  if (L.Blocks.count() > MaxLoopBlocks)
    return; // Unconditional stays empty
  std::vector<llvm::BitVector> Must(N);
  const Loop *Self = &L;
  auto Contribute = [&](const CFGBlock *From, const CFGBlock *To,
                        llvm::BitVector &M, bool &Any) {
    if (!To || Rpo[To->getBlockID()] < 0 || !L.Blocks.test(To->getBlockID()))
      return; // leaves L
    if (isBackEdge(From, To)) {
      M.reset(), Any = true; // the iteration ends here
      return;
    }
    if (!Any)
      M = Must[To->getBlockID()], Any = true;
    else
      M &= Must[To->getBlockID()];
  };
  for (auto It = Order.rbegin(); It != Order.rend(); ++It) {
    const CFGBlock *B = *It;
    const unsigned ID = B->getBlockID();
    if (!L.Blocks.test(ID))
      continue;
    llvm::BitVector M(N);
    bool Any = false;
    const int Inner = LoopOfHead[ID];
    if (Inner >= 0 && B != Self->Head) {
      // An inner loop's head: on to where the inner loop exits.
      for (unsigned X : Loops[Inner].Blocks.set_bits())
        for (const CFGBlock::AdjacentBlock &S : Order[Rpo[X]]->succs())
          if (const CFGBlock *To = S.getReachableBlock();
              To && !Loops[Inner].Blocks.test(To->getBlockID()))
            Contribute(Order[Rpo[X]], To, M, Any);
    } else {
      for (const CFGBlock::AdjacentBlock &S : B->succs())
        Contribute(B, S.getReachableBlock(), M, Any);
    }
    if (!Any)
      M = L.Blocks;
    M.set(ID);
    Must[ID] = std::move(M);
  }
  L.Unconditional = Must[L.Head->getBlockID()];
}

bool LoopNest::isBackEdge(const CFGBlock *From, const CFGBlock *To) const {
  if (!From || !To || Rpo.empty())
    return false;
  const int F = Rpo[From->getBlockID()], T = Rpo[To->getBlockID()];
  return F >= 0 && T >= 0 && T <= F;
}

bool LoopNest::leavesLoop(const CFGBlock *From, const CFGBlock *To) const {
  const int I = innermost(From);
  return I >= 0 && To && !Loops[I].Blocks.test(To->getBlockID());
}

bool LoopNest::firstIterationRuns(const CFGBlock *B) const {
  const int I = innermost(B);
  return I >= 0 && Loops[I].Reached &&
         Loops[I].Unconditional.test(B->getBlockID());
}

} // namespace clang::tidy::tensor::analysis
