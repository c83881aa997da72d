//===--- Loops.h - The loops of a CFG, for first-iteration facts ----------===//
//
// At a loop's head the analysis joins the facts from before the loop with
// those from the end of its body, so a hidden state made on the cpu and
// reassigned from the model's output in the body is on an unknown device
// at the model call. On the loop's first iteration it is still on the cpu,
// and the call fails there (pytorch/pytorch LSTM-state reports). LoopNest
// finds the natural loops of a function's CFG and the blocks every first
// iteration runs, so the solver can replay those blocks with the facts of
// the first iteration, which hold in every run that enters the loop.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOR_TIDY_CHECKS_ANALYSIS_LOOPS_H
#define TENSOR_TIDY_CHECKS_ANALYSIS_LOOPS_H

#include "clang/Analysis/CFG.h"
#include "llvm/ADT/BitVector.h"
#include <vector>

namespace clang {
class PostOrderCFGView;
} // namespace clang

namespace clang::tidy::tensor::analysis {

/// The natural loops of a CFG (the targets of its back edges, with the
/// blocks that reach a back edge without passing the target), nested by
/// containment. Built empty for a CFG with a back edge whose target does
/// not dominate its source (an irreducible loop made with goto): then no
/// block counts as in a loop, and the solver keeps its fixed point alone.
class LoopNest {
public:
  LoopNest(const CFG &G, const PostOrderCFGView &Order);

  /// Whether the CFG has a loop the first-iteration replay can use.
  bool empty() const { return Loops.empty(); }
  /// Whether B is in a loop.
  bool inLoop(const CFGBlock *B) const { return innermost(B) >= 0; }
  /// Whether From -> To is a back edge: To comes first in reverse
  /// post-order (To is the head of a loop that From closes).
  bool isBackEdge(const CFGBlock *From, const CFGBlock *To) const;
  /// Whether From -> To leaves a loop that holds From (a loop's exit, a
  /// break, a return from inside a loop).
  bool leavesLoop(const CFGBlock *From, const CFGBlock *To) const;
  /// Whether every first iteration of the loops that hold B runs B: on
  /// each path from the head of B's innermost loop to that loop's back
  /// edges B comes first, and each enclosing loop's first iteration enters
  /// the next one in the same way. Paths that leave the loop (a break, a
  /// return, a throw) do not count, and a loop is taken to be entered: B
  /// runs in the first iteration of every run that enters its loops and
  /// does not leave them before B.
  bool firstIterationRuns(const CFGBlock *B) const;

private:
  struct Loop {
    const CFGBlock *Head = nullptr;
    llvm::BitVector Blocks;
    int Parent = -1;
    /// The blocks every first iteration of this loop runs (above).
    llvm::BitVector Unconditional;
    /// Whether every first iteration of the enclosing loops reaches this
    /// loop's head.
    bool Reached = true;
  };
  int innermost(const CFGBlock *B) const {
    return B && B->getBlockID() < Innermost.size() ? Innermost[B->getBlockID()]
                                                   : -1;
  }
  void computeUnconditional(Loop &L, const std::vector<int> &LoopOfHead);

  /// Reverse post-order index of each block; -1 when unreachable.
  std::vector<int> Rpo;
  /// The blocks in reverse post-order.
  std::vector<const CFGBlock *> Order;
  std::vector<Loop> Loops;
  /// The smallest loop holding each block; -1 when none.
  std::vector<int> Innermost;
};

} // namespace clang::tidy::tensor::analysis

#endif // TENSOR_TIDY_CHECKS_ANALYSIS_LOOPS_H
