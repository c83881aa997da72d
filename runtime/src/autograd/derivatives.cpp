// Backward formulas, as PyTorch's derivatives.yaml states them. Closures
// capture inputs by handle (sharing storage, as SavedVariable) and outputs
// through alias_without_history (an output saving itself with its grad_fn
// would be a reference cycle). They run with grad mode off.
#include "derivatives.h"

#include <numeric>

#include "../internal_ops.h"
#include "graph.h"
#include "tt/factories.h"
#include "tt/ops.h"

namespace tt::detail::autograd {

using kernels::BinaryOp;
using kernels::UnaryOp;

namespace {
std::vector<Tensor> one(Tensor g) { return {std::move(g)}; }
}  // namespace

void record_binary(BinaryOp op, const Tensor& out, const std::vector<Tensor>& inputs, const std::vector<Tensor>& used,
                   const Scalar* scalar, const Scalar& alpha, bool reversed) {
  if (op >= BinaryOp::Eq || !needs_history(inputs)) return;  // comparisons have no gradient
  const bool two = inputs.size() == 2;
  Tensor a = used[0];
  Tensor b = two ? used[1] : Tensor();
  const Scalar s = scalar ? *scalar : Scalar(0);
  switch (op) {
    case BinaryOp::Add:
      record(out, "AddBackward0", inputs, [two, alpha](const Tensor& g) -> std::vector<Tensor> {
        if (!two) return {g};
        return {g, alpha.to_double() == 1.0 ? g : g * alpha};
      });
      return;
    case BinaryOp::Sub:
      if (reversed) {  // s - a
        record(out, "RsubBackward1", inputs, [](const Tensor& g) { return one(-g); });
        return;
      }
      record(out, "SubBackward0", inputs, [two, alpha](const Tensor& g) -> std::vector<Tensor> {
        if (!two) return {g};
        return {g, g * (-alpha)};
      });
      return;
    case BinaryOp::Mul:
      record(out, "MulBackward0", inputs, [a, b, two, s](const Tensor& g) -> std::vector<Tensor> {
        if (!two) return {g * s};
        return {g * b, g * a};
      });
      return;
    case BinaryOp::Div: {
      Tensor y = alias_without_history(out);
      if (reversed) {  // s / a: d/da = -s / a^2 = -out / a
        record(out, "DivBackward1", inputs, [a, y](const Tensor& g) { return one(-g * y / a); });
        return;
      }
      record(out, "DivBackward0", inputs, [b, y, two, s](const Tensor& g) -> std::vector<Tensor> {
        if (!two) return {g / s};
        return {g / b, -g * y / b};
      });
      return;
    }
    case BinaryOp::Pow: {
      Tensor y = alias_without_history(out);
      if (!two) {
        record(out, "PowBackward0", inputs, [a, s](const Tensor& g) -> std::vector<Tensor> {
          if (s.to_double() == 0.0) return {tt::zeros_like(g)};
          return {g * s * tt::pow(a, s.to_double() - 1.0)};
        });
        return;
      }
      record(out, "PowBackward1", inputs, [a, b, y](const Tensor& g) -> std::vector<Tensor> {
        // d/db a^b = a^b log a, taken as 0 where a == 0 and b >= 0 (PyTorch).
        Tensor gb = tt::where(tt::eq(a, 0), tt::zeros_like(g), g * y * tt::log(a));
        return {g * b * tt::pow(a, b - 1), gb};
      });
      return;
    }
    default: return;
  }
}

void record_unary(UnaryOp op, const Tensor& out, const Tensor& input, const Tensor& used) {
  if (!needs_history({&input})) return;
  Tensor x = used;
  Tensor y = alias_without_history(out);
  switch (op) {
    case UnaryOp::Neg: record(out, "NegBackward0", {input}, [](const Tensor& g) { return one(-g); }); return;
    case UnaryOp::Abs:
      record(out, "AbsBackward0", {input},
             [x](const Tensor& g) { return one(tt::where(tt::gt(x, 0), g, 0) - tt::where(tt::lt(x, 0), g, 0)); });
      return;
    case UnaryOp::Relu:
      record(out, "ReluBackward0", {input}, [y](const Tensor& g) { return one(tt::where(tt::gt(y, 0), g, 0)); });
      return;
    case UnaryOp::Sigmoid:
      record(out, "SigmoidBackward0", {input}, [y](const Tensor& g) { return one(g * y * tt::rsub(y, 1)); });
      return;
    case UnaryOp::Tanh:
      record(out, "TanhBackward0", {input}, [y](const Tensor& g) { return one(g * tt::rsub(y * y, 1)); });
      return;
    case UnaryOp::Exp: record(out, "ExpBackward0", {input}, [y](const Tensor& g) { return one(g * y); }); return;
    case UnaryOp::Log: record(out, "LogBackward0", {input}, [x](const Tensor& g) { return one(g / x); }); return;
    case UnaryOp::Sqrt:
      record(out, "SqrtBackward0", {input}, [y](const Tensor& g) { return one(g / (y * 2)); });
      return;
  }
}

void record_clamp(const Tensor& out, const Tensor& input, const Tensor& used, std::optional<Scalar> lo,
                  std::optional<Scalar> hi) {
  if (!needs_history({&input})) return;
  Tensor x = used;
  // Gradient passes where lo <= x <= hi, boundaries included (PyTorch).
  record(out, "ClampBackward1", {input}, [x, lo, hi](const Tensor& g) {
    Tensor r = g;
    if (lo) r = tt::where(tt::ge(x, *lo), r, 0);
    if (hi) r = tt::where(tt::le(x, *hi), r, 0);
    return one(r);
  });
}

void record_matmul(const Tensor& out, const Tensor& a, const Tensor& b, const Tensor& a_used, const Tensor& b_used) {
  if (!needs_history({&a, &b})) return;
  Tensor x = a_used, w = b_used;
  // Only the gradients some input needs are computed (PyTorch's
  // task_should_compute_output): the first Linear of a network never needs
  // the gradient of its data, a GEMM as large as its forward.
  const bool need_a = needs_history({&a}), need_b = needs_history({&b});
  record(out, "MmBackward0", {a, b}, [x, w, need_a, need_b](const Tensor& g) -> std::vector<Tensor> {
    const int64_t da = x.dim(), db = w.dim();
    if (da == 1 && db == 1) return {need_a ? g * w : Tensor(), need_b ? g * x : Tensor()};  // dot: g is 0-dim
    // Lift 1-D operands to matrices as matmul does, then the 2-D rule
    // dA = dC B^T, dB = A^T dC; the engine sums broadcast batch dims.
    Tensor a2 = da == 1 ? x.unsqueeze(0) : x;
    Tensor b2 = db == 1 ? w.unsqueeze(1) : w;
    Tensor g2 = da == 1 ? g.unsqueeze(-2) : (db == 1 ? g.unsqueeze(-1) : g);
    Tensor ga, gb;
    if (need_a) {
      ga = tt::matmul(g2, b2.transpose(-1, -2));
      if (da == 1) ga = ga.squeeze(-2);
    }
    if (need_b) {
      if (da == 2 && db == 2 && w.stride(0) == 1 && w.size(0) > 1) {
        // b is a transposed view (x @ W.t() in Linear): produce its gradient
        // as the transpose of a row-major (g^T x), so the gradient reaching W
        // through the transpose is row-major too.
        gb = tt::matmul(g2.t(), a2).t();
      } else {
        gb = tt::matmul(a2.transpose(-1, -2), g2);
      }
      if (db == 1) gb = gb.squeeze(-1);
    }
    return {ga, gb};
  });
}

void record_sum(const Tensor& out, const Tensor& input, std::vector<int64_t> dims, bool keepdim, bool mean) {
  if (!needs_history({&input})) return;
  const std::vector<int64_t> sizes = input.sizes().vec();
  if (dims.empty()) {
    dims.resize(sizes.size());
    std::iota(dims.begin(), dims.end(), 0);
  }
  std::sort(dims.begin(), dims.end());
  int64_t count = 1;
  for (auto d : dims) count *= sizes[d];
  record(out, mean ? "MeanBackward1" : "SumBackward1", {input}, [sizes, dims, keepdim, mean, count](const Tensor& g) {
    Tensor r = g;
    if (!keepdim)
      for (auto d : dims) r = r.unsqueeze(d);
    r = r.expand(sizes);
    return one(mean ? r / static_cast<double>(count) : r);
  });
}

void record_softmax(const Tensor& out, const Tensor& input, int64_t dim, bool log) {
  if (!needs_history({&input})) return;
  Tensor y = alias_without_history(out);
  if (log) {
    record(out, "LogSoftmaxBackward0", {input},
           [y, dim](const Tensor& g) { return one(g - tt::exp(y) * tt::sum(g, {dim}, true)); });
    return;
  }
  record(out, "SoftmaxBackward0", {input},
         [y, dim](const Tensor& g) { return one(y * (g - tt::sum(g * y, {dim}, true))); });
}

void record_cat(const Tensor& out, const std::vector<Tensor>& inputs, int64_t dim) {
  if (!needs_history(inputs)) return;
  std::vector<int64_t> lengths;
  for (const auto& t : inputs) lengths.push_back(t.size(dim));
  record(out, "CatBackward0", inputs, [lengths, dim](const Tensor& g) {
    std::vector<Tensor> r;
    int64_t offset = 0;
    for (auto n : lengths) {
      r.push_back(g.narrow(dim, offset, n));
      offset += n;
    }
    return r;
  });
}

void record_where(const Tensor& out, const Tensor& cond, const Tensor& x, const Tensor* y) {
  std::vector<Tensor> inputs{x};
  if (y) inputs.push_back(*y);
  if (!needs_history(inputs)) return;
  Tensor c = cond;
  record(out, "WhereBackward0", inputs, [c](const Tensor& g) -> std::vector<Tensor> {
    return {tt::where(c, g, 0), tt::where(c, tt::zeros_like(g), g)};
  });
}

void record_nll_loss(const Tensor& out, const Tensor& x, const Tensor& target, const Tensor& weight,
                     int64_t ignore_index, kernels::LossReduction reduction, double total_weight) {
  if (!needs_history({&x})) return;
  const std::vector<int64_t> sizes = x.sizes().vec();
  const ScalarType dtype = x.dtype();
  const Device device = x.device();
  record(out, "NllLossBackward0", {x},
         [sizes, dtype, device, target, weight, ignore_index, reduction, total_weight](const Tensor& g) {
           const auto here = std::source_location::current();
           const Tensor go = g.dtype() == dtype && g.device() == device ? g : g.to(device, dtype);
           Tensor grad = make_empty(sizes, dtype, device, here);
           kernels::nll_loss_backward(impl_of(grad, here), impl_of(go, here), impl_of(target, here),
                                      weight.defined() ? &impl_of(weight, here) : nullptr, ignore_index, reduction,
                                      total_weight);
           return one(grad);
         });
}

void record_reshape_view(const Tensor& out, const Tensor& input, const char* name) {
  if (!needs_history({&input})) return;
  std::vector<int64_t> sizes = input.sizes().vec();
  record(out, name, {input}, [sizes](const Tensor& g) { return one(g.reshape(sizes)); });
}

void record_expand(const Tensor& out, const Tensor& input) {
  record(out, "ExpandBackward0", {input}, [](const Tensor& g) { return one(g); });
}

void record_transpose(const Tensor& out, const Tensor& input, int64_t d0, int64_t d1) {
  record(out, "TransposeBackward0", {input}, [d0, d1](const Tensor& g) { return one(g.transpose(d0, d1)); });
}

void record_permute(const Tensor& out, const Tensor& input, std::vector<int64_t> dims) {
  if (!needs_history({&input})) return;
  std::vector<int64_t> inverse(dims.size());
  for (size_t i = 0; i < dims.size(); ++i) inverse[dims[i]] = static_cast<int64_t>(i);
  record(out, "PermuteBackward0", {input}, [inverse](const Tensor& g) { return one(g.permute(inverse)); });
}

void record_slice(const Tensor& out, const Tensor& input, int64_t dim, int64_t start, int64_t end, int64_t step) {
  if (!needs_history({&input})) return;
  std::vector<int64_t> sizes = input.sizes().vec();
  record(out, "SliceBackward0", {input}, [sizes, dim, start, end, step](const Tensor& g) {
    Tensor r = tt::zeros(sizes, g.options());
    r.slice(dim, start, end, step).copy_(g);
    return one(r);
  });
}

void record_select(const Tensor& out, const Tensor& input, int64_t dim, int64_t index) {
  if (!needs_history({&input})) return;
  std::vector<int64_t> sizes = input.sizes().vec();
  record(out, "SelectBackward0", {input}, [sizes, dim, index](const Tensor& g) {
    Tensor r = tt::zeros(sizes, g.options());
    r.select(dim, index).copy_(g);
    return one(r);
  });
}

void record_conversion(const Tensor& out, const Tensor& input, const char* name) {
  record(out, name, {input}, [](const Tensor& g) { return one(g); });
}

}  // namespace tt::detail::autograd
