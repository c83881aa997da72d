// A small mock of LibTorch 1.13's public C++ API for fast, hermetic check
// tests: the same namespaces, class names, overload sets and return types as
// the real headers (ATen/core/TensorBody.h, c10/core/Device.h,
// torch/nn/module.h, torch/nn/pimpl.h), without the implementation. The
// integration tests run the same checks against the real headers.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace c10 {
enum class DeviceType : int8_t { CPU = 0, CUDA = 1 };
constexpr DeviceType kCPU = DeviceType::CPU;
constexpr DeviceType kCUDA = DeviceType::CUDA;
using DeviceIndex = int8_t;
struct Device {
  Device(DeviceType type, DeviceIndex index = -1) : type_(type), index_(index) {}
  Device(const std::string &device_string);
  DeviceType type() const { return type_; }
  bool is_cuda() const { return type_ == DeviceType::CUDA; }
  bool is_cpu() const { return type_ == DeviceType::CPU; }
  DeviceType type_;
  DeviceIndex index_;
};
enum class ScalarType : int8_t { Byte, Char, Short, Int, Long, Half, Float, Double, Bool, BFloat16 };
constexpr ScalarType kByte = ScalarType::Byte;
constexpr ScalarType kInt = ScalarType::Int;
constexpr ScalarType kLong = ScalarType::Long;
constexpr ScalarType kHalf = ScalarType::Half;
constexpr ScalarType kFloat = ScalarType::Float;
constexpr ScalarType kDouble = ScalarType::Double;
constexpr ScalarType kBool = ScalarType::Bool;
constexpr ScalarType kBFloat16 = ScalarType::BFloat16;
enum class MemoryFormat : int8_t { Contiguous, Preserve };
enum class Layout : int8_t { Strided };
using IntArrayRef = std::vector<int64_t>;
struct Scalar {
  Scalar(double);
  Scalar(int);
  Scalar(int64_t);
};
struct TensorOptions {
  TensorOptions() = default;
  TensorOptions(ScalarType);
  TensorOptions(Device);
  TensorOptions(DeviceType);
  TensorOptions dtype(ScalarType) const;
  TensorOptions device(Device) const;
  TensorOptions requires_grad(bool = true) const;
  TensorOptions pinned_memory(bool = true) const;
};
inline TensorOptions device(Device d) { return TensorOptions().device(d); }
inline TensorOptions dtype(ScalarType t) { return TensorOptions().dtype(t); }
} // namespace c10

namespace at {
using c10::Device;
using c10::DeviceType;
using c10::IntArrayRef;
using c10::kBFloat16;
using c10::kBool;
using c10::kCPU;
using c10::kCUDA;
using c10::kDouble;
using c10::kFloat;
using c10::kHalf;
using c10::kInt;
using c10::kLong;
using c10::Layout;
using c10::MemoryFormat;
using c10::Scalar;
using c10::ScalarType;
using c10::TensorOptions;

// ATen/core/TensorAccessor.h: indexes a data pointer with sizes and strides.
template <typename T, size_t N> class TensorAccessor {
public:
  TensorAccessor<T, N - 1> operator[](int64_t i) const;
};
template <typename T> class TensorAccessor<T, 1> {
public:
  T &operator[](int64_t i) const;
};

class TensorBase {
public:
  TensorBase() = default;
  TensorBase(const TensorBase &) = default;
  TensorBase &operator=(const TensorBase &) = default;
  ~TensorBase();
  int64_t dim() const;
  int64_t numel() const;
  IntArrayRef sizes() const;
  Device device() const;
  ScalarType scalar_type() const;
  bool is_cuda() const;
  bool defined() const;
  TensorBase contiguous(MemoryFormat memory_format = MemoryFormat::Contiguous) const;
  template <typename T> T *data_ptr() const;
  template <typename T, size_t N> TensorAccessor<T, N> accessor() const &;
  template <typename T, size_t N> TensorAccessor<T, N> accessor() && = delete;
  template <typename T> T item() const;
};

class Tensor : public TensorBase {
public:
  Tensor() = default;
  Tensor(const Tensor &) = default;
  Tensor &operator=(const Tensor &) &;
  Tensor &operator=(Tensor &&) &;
  Tensor contiguous(MemoryFormat memory_format = MemoryFormat::Contiguous) const;
  Tensor toType(ScalarType t) const;
  Tensor cpu() const;
  Tensor cuda() const;
  Tensor pin_memory(std::optional<Device> device = std::nullopt) const;
  Tensor detach() const;
  Tensor &detach_() const;
  Tensor type_as(const Tensor &other) const;
  Tensor clone(std::optional<MemoryFormat> memory_format = std::nullopt) const;
  Tensor to(TensorOptions options = {}, bool non_blocking = false, bool copy = false,
            std::optional<MemoryFormat> memory_format = std::nullopt) const;
  Tensor to(Device device, ScalarType dtype, bool non_blocking = false, bool copy = false,
            std::optional<MemoryFormat> memory_format = std::nullopt) const;
  Tensor to(ScalarType dtype, bool non_blocking = false, bool copy = false,
            std::optional<MemoryFormat> memory_format = std::nullopt) const;
  Tensor to(const Tensor &other, bool non_blocking = false, bool copy = false,
            std::optional<MemoryFormat> memory_format = std::nullopt) const;
  Tensor &copy_(const Tensor &src, bool non_blocking = false) const;
  Tensor &operator+=(const Tensor &other);
  Tensor &operator*=(const Scalar &other);
  Tensor &add_(const Tensor &other) const;
  Tensor &mul_(const Scalar &other) const;
  Tensor &zero_() const;
  Tensor add(const Tensor &other) const;
  Tensor sub(const Tensor &other) const;
  Tensor mul(const Tensor &other) const;
  Tensor div(const Tensor &other) const;
  Tensor matmul(const Tensor &other) const;
  Tensor mm(const Tensor &other) const;
  Tensor sum() const;
  Tensor mean() const;
  Tensor argmax(int64_t dim, bool keepdim = false) const;
  Tensor view(IntArrayRef size) const;
  Tensor reshape(IntArrayRef size) const;
  Tensor eq(const Tensor &other) const;
  Tensor relu() const;
  Tensor &relu_() const;
  Tensor &sub_(const Tensor &other) const;
  Tensor clamp(const Scalar &min, const Scalar &max) const;
  Tensor &clamp_(const Scalar &min, const Scalar &max) const;
  Tensor squeeze(int64_t dim) const;
  Tensor &squeeze_(int64_t dim) const;
  Tensor t() const;
  Tensor &t_() const;
  Tensor masked_fill(const Tensor &mask, const Scalar &value) const;
  Tensor &masked_fill_(const Tensor &mask, const Scalar &value) const;
  Tensor softmax(int64_t dim) const;
  Tensor index_select(int64_t dim, const Tensor &index) const;
  Tensor gather(int64_t dim, const Tensor &index) const;
  Tensor index(const std::vector<Tensor> &indices) const;
  Tensor &index_put_(const std::vector<Tensor> &indices, const Tensor &values) const;
  Tensor &set_requires_grad(bool requires_grad);
  const Tensor &grad() const;
  void backward() const;
};

Tensor operator+(const Tensor &, const Tensor &);
Tensor operator-(const Tensor &, const Tensor &);
Tensor operator*(const Tensor &, const Tensor &);
Tensor operator/(const Tensor &, const Tensor &);
Tensor operator+(const Tensor &, const Scalar &);
Tensor operator*(const Tensor &, const Scalar &);
Tensor operator*(const Scalar &, const Tensor &);
Tensor matmul(const Tensor &, const Tensor &);
Tensor baddbmm(const Tensor &self, const Tensor &batch1, const Tensor &batch2);
Tensor mm(const Tensor &, const Tensor &);
Tensor add(const Tensor &, const Tensor &);
Tensor cat(const std::vector<Tensor> &, int64_t dim = 0);
Tensor stack(const std::vector<Tensor> &, int64_t dim = 0);
Tensor where(const Tensor &, const Tensor &, const Tensor &);
Tensor relu(const Tensor &);
Tensor log_softmax(const Tensor &, int64_t dim);
Tensor nll_loss(const Tensor &, const Tensor &);
} // namespace at

namespace torch {
using at::Tensor;
using c10::Device;
using c10::DeviceType;
using c10::kBFloat16;
using c10::kBool;
using c10::kCPU;
using c10::kCUDA;
using c10::kDouble;
using c10::kFloat;
using c10::kHalf;
using c10::kInt;
using c10::kLong;
using c10::TensorOptions;
using c10::device;
using c10::dtype;
using Dtype = c10::ScalarType;
using at::add;
using at::cat;
using at::matmul;
using at::baddbmm;
using at::mm;
using at::stack;
using at::where;
using at::relu;
using at::log_softmax;
using at::nll_loss;

Tensor randn(c10::IntArrayRef size, const TensorOptions &options = {});
Tensor randint(int64_t high, c10::IntArrayRef size, const TensorOptions &options = {});
Tensor zeros_like(const Tensor &other, const TensorOptions &options = {});
Tensor rand(c10::IntArrayRef size, const TensorOptions &options = {});
Tensor zeros(c10::IntArrayRef size, const TensorOptions &options = {});
Tensor ones(c10::IntArrayRef size, const TensorOptions &options = {});
Tensor empty(c10::IntArrayRef size, const TensorOptions &options = {});
Tensor full(c10::IntArrayRef size, const c10::Scalar &value, const TensorOptions &options = {});
Tensor arange(const c10::Scalar &end, const TensorOptions &options = {});
Tensor tensor(double value, const TensorOptions &options = {});
Tensor from_blob(void *data, c10::IntArrayRef sizes, const TensorOptions &options = {});

namespace cuda {
bool is_available();
int device_count();
} // namespace cuda

struct NoGradGuard {
  NoGradGuard();
  ~NoGradGuard();
};

namespace nn {
class Module : public std::enable_shared_from_this<Module> {
public:
  virtual ~Module() = default;
  virtual void to(Device device, c10::ScalarType dtype, bool non_blocking = false);
  virtual void to(c10::ScalarType dtype, bool non_blocking = false);
  virtual void to(Device device, bool non_blocking = false);
  std::vector<Tensor> parameters(bool recurse = true) const;
  void train(bool on = true);
  void eval();
  template <typename ModuleType>
  std::shared_ptr<ModuleType> register_module(std::string name, std::shared_ptr<ModuleType> module);
  Tensor &register_parameter(std::string name, Tensor tensor, bool requires_grad = true);
};

template <typename Contained> class ModuleHolder {
public:
  template <typename... Args> explicit ModuleHolder(Args &&...args);
  Contained *operator->();
  const Contained *operator->() const;
  Contained &operator*();
  template <typename... Args> auto operator()(Args &&...args) {
    return impl_->forward(std::forward<Args>(args)...);
  }
  std::shared_ptr<Contained> ptr() const;

private:
  std::shared_ptr<Contained> impl_;
};

#define TORCH_MODULE(Name)                                                     \
  class Name : public torch::nn::ModuleHolder<Name##Impl> {                    \
  public:                                                                      \
    using torch::nn::ModuleHolder<Name##Impl>::ModuleHolder;                   \
  }

class SequentialImpl : public Module {
public:
  template <typename... M> explicit SequentialImpl(M &&...modules);
  Tensor forward(const Tensor &input);
};
TORCH_MODULE(Sequential);

struct LinearImpl : Module {
  LinearImpl(int64_t in, int64_t out);
  Tensor forward(const Tensor &input);
  Tensor weight, bias;
};
TORCH_MODULE(Linear);

struct CrossEntropyLossImpl : Module {
  Tensor forward(const Tensor &input, const Tensor &target);
};
TORCH_MODULE(CrossEntropyLoss);

namespace functional {
Tensor mse_loss(const Tensor &input, const Tensor &target);
Tensor cross_entropy(const Tensor &input, const Tensor &target);
Tensor nll_loss(const Tensor &input, const Tensor &target);
} // namespace functional
} // namespace nn

namespace data {
template <typename Data = Tensor, typename Target = Tensor> struct Example {
  Data data;
  Target target;
};
template <typename Batch> class DataLoaderBase {
public:
  struct iterator {
    Batch &operator*();
    iterator &operator++();
    bool operator!=(const iterator &) const;
  };
  iterator begin();
  iterator end();
};
template <typename Batch>
class StatelessDataLoader : public DataLoaderBase<Batch> {};
struct DataLoaderOptions {
  DataLoaderOptions(size_t batch_size);
};
template <typename Dataset>
std::unique_ptr<StatelessDataLoader<Example<>>>
make_data_loader(Dataset dataset, DataLoaderOptions options);
} // namespace data

namespace optim {
struct SGD {
  SGD(std::vector<Tensor> params, double lr);
  void zero_grad();
  void step();
};
} // namespace optim
} // namespace torch
