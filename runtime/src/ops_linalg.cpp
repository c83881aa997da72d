// matmul and mm with PyTorch's shape rules and its refusal to promote.
#include <algorithm>
#include <string>

#include "autograd/derivatives.h"
#include "device_dtype_rules.h"
#include "internal_ops.h"
#include "kernels/kernels.h"
#include "op_builder.h"
#include "tensor_impl.h"
#include "tt/autograd.h"
#include "tt/errors.h"
#include "tt/ops.h"

namespace tt {

using detail::impl_of;

namespace {

std::string dims_str(const std::vector<int64_t>& s) {
  std::string r;
  for (size_t i = 0; i < s.size(); ++i) r += (i ? "x" : "") + std::to_string(s[i]);
  return r;
}

void check_gemm_dtype(ScalarType t, const SourceLoc& loc) {
  if (t == ScalarType::Bool)
    throw DTypeMismatchError("\"addmm_impl_cpu_\" not implemented for '" + std::string(to_string(t)) + "'", loc);
}

// How BLAS can read a 2-D operand in place: row-major (trans false) or a
// transposed view of a row-major matrix (trans true), with its leading dim.
struct Blas2d {
  bool ok = false, trans = false;
  int64_t ld = 0;
};
Blas2d as_blas(const detail::TensorImpl& t) {
  const int64_t r = t.sizes[0], c = t.sizes[1], s0 = t.strides[0], s1 = t.strides[1];
  if ((s1 == 1 || c == 1) && s0 >= std::max<int64_t>(c, 1)) return {true, false, s0};
  if ((s0 == 1 || r == 1) && s1 >= std::max<int64_t>(r, 1)) return {true, true, s1};
  return {};
}

// [..., m, k] @ [..., k, n] with broadcast batch dims; a and b are >= 2-D
// and already share device and dtype.
Tensor batched(const Tensor& a, const Tensor& b, Device device, const SourceLoc& loc) {
  const auto& ai = impl_of(a, loc);
  const auto& bi = impl_of(b, loc);
  // 2-D float products of row-major or transposed operands need no copies.
  if (ai.sizes.size() == 2 && bi.sizes.size() == 2 && ai.sizes[1] == bi.sizes[0] && ai.sizes[1] > 0 &&
      (ai.dtype == ScalarType::Float || ai.dtype == ScalarType::Double)) {
    const Blas2d la = as_blas(ai), lb = as_blas(bi);
    if (la.ok && lb.ok) {
      Tensor out = detail::make_empty({ai.sizes[0], bi.sizes[1]}, ai.dtype, device, loc);
      detail::kernels::gemm_2d(device, ai.dtype, la.trans, lb.trans, ai.sizes[0], bi.sizes[1], ai.sizes[1], ai.data(),
                               la.ld, bi.data(), lb.ld, impl_of(out, loc).data());
      return out;
    }
  }
  const int64_t m = ai.sizes[ai.sizes.size() - 2], k = ai.sizes.back();
  const int64_t k2 = bi.sizes[bi.sizes.size() - 2], n = bi.sizes.back();
  if (k != k2) {
    throw ShapeError(
        "mat1 and mat2 shapes cannot be multiplied (" + dims_str({m, k}) + " and " + dims_str({k2, n}) + ")", loc);
  }
  const std::vector<int64_t> abatch(ai.sizes.begin(), ai.sizes.end() - 2), bbatch(bi.sizes.begin(), bi.sizes.end() - 2);
  const auto batch = detail::broadcast_shape(abatch, bbatch, loc);
  auto with = [](std::vector<int64_t> s, int64_t x, int64_t y) {
    s.push_back(x);
    s.push_back(y);
    return s;
  };
  Tensor ac = detail::contiguous_internal(detail::expand_internal(a, with(batch, m, k), loc), loc);
  Tensor bc = detail::contiguous_internal(detail::expand_internal(b, with(batch, k, n), loc), loc);
  Tensor out = detail::make_empty(with(batch, m, n), ai.dtype, device, loc);
  detail::kernels::gemm(impl_of(ac, loc), impl_of(bc, loc), impl_of(out, loc), detail::numel_of(batch), m, k, n);
  return out;
}

std::string scalar_type_msg(ScalarType expected, ScalarType found) {
  return "expected scalar type " + std::string(to_string(expected)) + " but found " + std::string(to_string(found));
}

// The matmul family's front half: no cpu scalars, no promotion (PyTorch's
// "expected scalar type" errors), each op checks its own shapes.
detail::OpBuilder matmul_builder(const char* op, const Tensor& a, const Tensor& b,
                                 std::string (*message)(ScalarType, ScalarType), const SourceLoc& loc) {
  detail::OpBuilder builder(op, loc);
  builder.add_input(a).add_input(b).no_cpu_scalars().no_broadcast().no_cast().same_dtype(message);
  return builder;
}

}  // namespace

Tensor mm(const Tensor& a, const Tensor& b, SourceLoc loc) {
  if (impl_of(a, loc).sizes.size() != 2) throw ValueError("self must be a matrix", loc);
  if (impl_of(b, loc).sizes.size() != 2) throw ValueError("mat2 must be a matrix", loc);
  detail::OpPlan p = matmul_builder("mm", a, b, scalar_type_msg, loc).build();
  check_gemm_dtype(p.dtype, loc);
  Tensor out = batched(p.operands[0], p.operands[1], p.device, loc);
  detail::autograd::record_matmul(out, a, b, p.operands[0], p.operands[1]);
  return out;
}

namespace {
Tensor matmul_impl(const Tensor& a, const Tensor& b, std::vector<Tensor>& ops, const SourceLoc& loc) {
  const int64_t da = static_cast<int64_t>(impl_of(a, loc).sizes.size());
  const int64_t db = static_cast<int64_t>(impl_of(b, loc).sizes.size());
  if (da == 0 || db == 0) {
    throw ValueError("both arguments to matmul need to be at least 1D, but they are " + std::to_string(da) + "D and " +
                         std::to_string(db) + "D",
                     loc);
  }
  auto dot_msg = [](ScalarType ta, ScalarType tb) {
    return "dot : expected both vectors to have same dtype, but found " + std::string(to_string(ta)) + " and " +
           std::string(to_string(tb));
  };
  detail::OpPlan p = (da == 1 && db == 1) ? matmul_builder("matmul", a, b, dot_msg, loc).build()
                                          : matmul_builder("matmul", a, b, scalar_type_msg, loc).build();
  check_gemm_dtype(p.dtype, loc);
  ops = p.operands;
  const Device device = p.device;
  const Tensor& x = ops[0];
  const Tensor& y = ops[1];
  const auto& xs = impl_of(x, loc).sizes;
  const auto& ys = impl_of(y, loc).sizes;
  if (da == 1 && db == 1) {
    if (xs[0] != ys[0]) {
      throw ShapeError("inconsistent tensor size, expected tensor [" + std::to_string(xs[0]) + "] and src [" +
                           std::to_string(ys[0]) + "] to have the same number of elements, but got " +
                           std::to_string(xs[0]) + " and " + std::to_string(ys[0]) + " elements respectively",
                       loc);
    }
    return batched(x.unsqueeze(0, loc), y.unsqueeze(1, loc), device, loc).view({}, loc);
  }
  if (da == 2 && db == 1) {
    if (xs[1] != ys[0]) {
      throw ShapeError(
          "size mismatch, got " + std::to_string(xs[0]) + ", " + dims_str(xs) + "," + std::to_string(ys[0]), loc);
    }
    return batched(x, y.unsqueeze(1, loc), device, loc).squeeze(-1, loc);
  }
  if (da == 1) return batched(x.unsqueeze(0, loc), y, device, loc).squeeze(-2, loc);
  if (db == 1) return batched(x, y.unsqueeze(1, loc), device, loc).squeeze(-1, loc);
  return batched(x, y, device, loc);
}
}  // namespace

Tensor matmul(const Tensor& a, const Tensor& b, SourceLoc loc) {
  std::vector<Tensor> ops;
  Tensor out;
  {
    // The 1-D cases lift operands with views; those need no history.
    AutoGradMode below_autograd(false);
    out = matmul_impl(a, b, ops, loc);
  }
  detail::autograd::record_matmul(out, a, b, ops[0], ops[1]);
  return out;
}

Tensor Tensor::matmul(const Tensor& other, SourceLoc loc) const { return tt::matmul(*this, other, loc); }
Tensor Tensor::mm(const Tensor& other, SourceLoc loc) const { return tt::mm(*this, other, loc); }

}  // namespace tt
