//===--- OpSchema.h - ATen operator schemas -------------------------------===//
//
// An ATen operator's schema as LibTorch declares it, in the grammar of
// native_functions.yaml's `func:` entries that c10::FunctionSchema parses:
//
//   add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
//   max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor
//   indices) add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) ->
//   Tensor(a!)
//
// Every LibTorch header set carries these strings (`schema_str` of the
// structs in at::_ops, ATen/ops/*_ops.h), 1.13 and 2.x alike; the analysis
// reads what a call does to devices and dtypes from them (AtenSemantics.h).
//
//===----------------------------------------------------------------------===//

#ifndef TENSOR_TIDY_CHECKS_OPSCHEMA_H
#define TENSOR_TIDY_CHECKS_OPSCHEMA_H

#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>
#include <vector>

namespace clang::tidy::tensor {

/// One parsed schema. Only what the analysis needs is kept: argument and
/// return kinds, optionality, alias annotations and keyword-only markers.
struct OpSchema {
  enum class Type {
    Tensor,     // Tensor, Tensor?
    TensorList, // Tensor[], Tensor?[] (index's indices)
    ScalarType, // ScalarType, ScalarType?
    Device,     // Device, Device?
    Scalar,     // Scalar, Scalar?
    Int,        // int, SymInt
    IntList,    // int[], int[2], SymInt[]
    Bool,
    Float,
    Other, // str, Layout, MemoryFormat, Generator, Dimname, ...
  };

  struct Argument {
    std::string Name;
    Type Ty = Type::Other;
    bool Optional = false;  // `T?`: may be None
    bool Aliases = false;   // an alias annotation: `Tensor(a)`
    bool Writes = false;    // a written alias: `Tensor(a!)`
    bool KwargOnly = false; // after `*`
    bool HasDefault = false;
  };

  std::string Name;     // "add_" (without "aten::")
  std::string Overload; // "Tensor", or "" for the default overload
  std::vector<Argument> Arguments;
  std::vector<Argument> Returns;

  /// Parses \p Text, with or without the "aten::" namespace. nullopt when it
  /// is not a schema this grammar describes.
  static std::optional<OpSchema> parse(llvm::StringRef Text);

  /// The op without its trailing '_' (add for add_): in-place and
  /// out-of-place twins share their semantics.
  llvm::StringRef baseName() const;
  /// Writes its `self` and returns it: `add_`, `relu_`.
  bool isInPlace() const;
  /// Writes keyword-only `out` arguments: `add.out`.
  bool isOut() const;
  /// Returns an alias of an argument without writing it: a view
  /// (`select.int(Tensor(a) self, ...) -> Tensor(a)`).
  bool returnsView() const;
  /// Number of Tensor returns (a Tensor[] return counts as one).
  unsigned tensorReturns() const;
};

} // namespace clang::tidy::tensor

#endif // TENSOR_TIDY_CHECKS_OPSCHEMA_H
