// Header included by two translation units of the report tests.
inline Tensor forward(Tensor a, Tensor b) {
  return matmul(a, b.half());
}
