// Placement of violations over made-up stacks, innermost frame first.
#include <gtest/gtest.h>

#include "Sites.h"

namespace tensor_run {
namespace {

constexpr std::size_t npos = static_cast<std::size_t>(-1);

Frame lib(const char* function) {
  Frame f;
  f.kind = ObjectKind::LibTorch;
  f.object = "/usr/lib/x86_64-linux-gnu/libtorch_cpu.so.1.13";
  f.function = function;
  return f;
}
Frame user(const char* function, unsigned line) {
  Frame f;
  f.kind = ObjectKind::Program;
  f.object = "/src/build/train";
  f.function = function;
  f.file = "/src/train.cpp";
  f.line = line;
  return f;
}
Frame header(const char* function) {
  Frame f = user(function, 1624);
  f.file = "/usr/include/ATen/core/TensorBody.h";
  return f;
}

// Records and messages carry names with template arguments shortened
// (issue 23, item 9): pytorch/examples' mnist trains in a template over its
// data loader, a 1.2 KB name in every record.
TEST(Names, ShortFunctionName) {
  const std::string loader =
      "torch::data::StatelessDataLoader<torch::data::datasets::MapDataset<torch::data::datasets::MapDataset<"
      "torch::data::datasets::MNIST, torch::data::transforms::Normalize<at::Tensor> >, "
      "torch::data::transforms::Stack<torch::data::Example<at::Tensor, at::Tensor> > >, "
      "torch::data::samplers::SequentialSampler>";
  const std::string train = "void train<" + loader + " >(unsigned long, Net&, c10::Device, " + loader +
                            "&, torch::optim::Optimizer&, unsigned long)";
  ASSERT_GT(train.size(), 600u);
  EXPECT_EQ(short_function_name(train),
            "void train<...>(unsigned long, Net&, c10::Device, torch::data::StatelessDataLoader<...>&, "
            "torch::optim::Optimizer&, unsigned long)");
  // Nested lists go first; a name that is then short enough keeps the outer ones.
  EXPECT_EQ(short_function_name("void f<std::vector<std::pair<int, float> > >(std::map<int, int> const&)"),
            "void f<std::vector<...> >(std::map<int, int> const&)");
  EXPECT_EQ(short_function_name("(anonymous namespace)::Net::forward(at::Tensor)"),
            "(anonymous namespace)::Net::forward(at::Tensor)");
  // Operators are not template lists.
  EXPECT_EQ(short_function_name("std::ostream& operator<< <std::vector<int, std::allocator<int> > >(std::ostream&)"),
            "std::ostream& operator<< <std::vector<...> >(std::ostream&)");
  EXPECT_EQ(short_function_name("bool operator< <Key<A<B> > >(Key<A<B> > const&)"),
            "bool operator< <Key<...> >(Key<A<...> > const&)");
  EXPECT_EQ(short_function_name("Ptr<T>::operator->() const"), "Ptr<T>::operator->() const");
  EXPECT_EQ(short_function_name("auto Net::operator>>=<Vec<Vec<int> > >(int)"),
            "auto Net::operator>>=<Vec<...> >(int)");
  EXPECT_EQ(short_function_name("main"), "main");
  EXPECT_EQ(short_function_name(""), "");
}

TEST(Names, QualifiedName) {
  EXPECT_EQ(qualified_name("void torch::nn::Module::to_impl<c10::Device&, bool&>(c10::Device&, bool&)"),
            "torch::nn::Module::to_impl<c10::Device&, bool&>");
  EXPECT_EQ(qualified_name("(anonymous namespace)::NetImpl::forward(at::Tensor) const"),
            "(anonymous namespace)::NetImpl::forward");
  EXPECT_EQ(qualified_name("at::Tensor torch::nn::SequentialImpl::forward<at::Tensor, at::Tensor&>(at::Tensor&)"),
            "torch::nn::SequentialImpl::forward<at::Tensor, at::Tensor&>");
  EXPECT_EQ(qualified_name("torch::nn::ModuleHolder<NetImpl>::operator()(at::Tensor)"),
            "torch::nn::ModuleHolder<NetImpl>::operator()");
  EXPECT_EQ(qualified_name("main"), "main");
  EXPECT_EQ(unqualified_name("torch::nn::SequentialImpl::forward<at::Tensor>"), "forward");
  EXPECT_EQ(unqualified_name("forward"), "forward");
}

TEST(Names, LibTorchModules) {
  EXPECT_EQ(libtorch_module_of(lib("torch::nn::LinearImpl::forward(at::Tensor const&)")), "Linear");
  EXPECT_EQ(libtorch_module_of(
                lib("torch::nn::BatchNormImplBase<2ul, torch::nn::BatchNorm2dImpl>::forward(at::Tensor const&)")),
            "BatchNorm2d");
  EXPECT_EQ(libtorch_module_of(lib(
                "torch::nn::LSTMImpl::forward(at::Tensor const&, c10::optional<std::tuple<at::Tensor, at::Tensor> >)")),
            "LSTM");
  EXPECT_EQ(libtorch_module_of(lib("torch::jit::Module::forward(std::vector<c10::IValue>)")), "TorchScript module");
  EXPECT_EQ(libtorch_module_of(lib("torch::nn::Module::to(c10::Device, bool)")), "");
  EXPECT_EQ(libtorch_module_of(lib("at::_ops::addmm::call(at::Tensor const&)")), "");
  EXPECT_TRUE(layer_has_parameters("Linear"));
  EXPECT_TRUE(layer_has_parameters("LSTM"));
  EXPECT_FALSE(layer_has_parameters("CrossEntropyLoss"));
  EXPECT_FALSE(layer_has_parameters("ReLU"));
  EXPECT_FALSE(layer_has_parameters("Sequential"));
}

TEST(Frames, UserFrames) {
  EXPECT_TRUE(is_user_frame(user("main", 3)));
  EXPECT_FALSE(is_user_frame(lib("torch::nn::LinearImpl::forward(at::Tensor const&)")));
  EXPECT_FALSE(is_user_frame(header("at::Tensor::add_(at::Tensor const&, c10::Scalar const&) const")));
  Frame no_debug_info = user("at::Tensor::to(c10::Device) const", 0);
  no_debug_info.file.clear();
  EXPECT_FALSE(is_user_frame(no_debug_info));  // LibTorch's header code, by its namespace
  Frame stripped = user("count(at::Tensor&)", 0);
  stripped.file.clear();
  EXPECT_TRUE(is_user_frame(stripped));
  Frame start = user("_start", 0);
  start.file.clear();
  EXPECT_FALSE(is_user_frame(start));
}

TEST(Frames, ObjectKinds) {
  EXPECT_EQ(classify_object("/usr/lib/x86_64-linux-gnu/libtorch_cpu.so.1.13", "/x/libtensor-run.so"),
            ObjectKind::LibTorch);
  EXPECT_EQ(classify_object("/opt/libtorch/lib/libc10.so", "/x/libtensor-run.so"), ObjectKind::LibTorch);
  EXPECT_EQ(classify_object("/usr/lib/x86_64-linux-gnu/libc.so.6", "/x/libtensor-run.so"), ObjectKind::System);
  EXPECT_EQ(classify_object("/x/libtensor-run.so", "/x/libtensor-run.so"), ObjectKind::Self);
  EXPECT_EQ(classify_object("/home/me/build/train", "/x/libtensor-run.so"), ObjectKind::Program);
}

// model->forward(x) with x on the cpu: the mismatch surfaces in addmm inside
// Linear inside the user's Net::forward; the checks report the call in main.
TEST(Place, UnmovedInputAtTheOutermostModuleCall) {
  std::vector<Frame> frames = {lib("at::_ops::addmm::call(at::Tensor const&)"),
                               lib("torch::nn::LinearImpl::forward(at::Tensor const&)"),
                               header("torch::nn::ModuleHolder<torch::nn::LinearImpl>::operator()(at::Tensor&)"),
                               user("(anonymous namespace)::NetImpl::forward(at::Tensor)", 12), user("main", 40)};
  Placement p = place(ViolationKind::Device, true, frames);
  EXPECT_EQ(p.check, "tensor-unmoved-input");
  EXPECT_EQ(p.frame, 4u);
  EXPECT_EQ(p.module, "Linear");
  // A dtype mismatch there is the module call's tensor-mixed-dtype.
  p = place(ViolationKind::Dtype, true, frames);
  EXPECT_EQ(p.check, "tensor-mixed-dtype");
  EXPECT_EQ(p.frame, 4u);
}

TEST(Place, ModuleInputWithoutAParameterOperand) {
  // An LSTM's cell state on the cpu meets the gates (not a parameter).
  std::vector<Frame> frames = {lib("at::_ops::mul_Tensor::call(at::Tensor const&)"),
                               lib("torch::nn::LSTMImpl::forward_helper(at::Tensor const&)"),
                               lib("torch::nn::LSTMImpl::forward(at::Tensor const&)"), user("main", 9)};
  Placement p = place(ViolationKind::Device, false, frames);
  EXPECT_EQ(p.check, "tensor-unmoved-input");
  EXPECT_EQ(p.frame, 3u);
}

TEST(Place, UserForwardUsingItsParameter) {
  std::vector<Frame> frames = {lib("at::_ops::mul_Tensor::call(at::Tensor const&)"),
                               header("at::Tensor::operator*(at::Tensor const&) const"),
                               user("ScaleImpl::forward(at::Tensor const&)", 20), user("run()", 31)};
  Placement p = place(ViolationKind::Device, true, frames);
  EXPECT_EQ(p.check, "tensor-unmoved-input");
  EXPECT_EQ(p.frame, 3u);
  // Without a parameter it is the expression inside forward.
  p = place(ViolationKind::Device, false, frames);
  EXPECT_EQ(p.check, "tensor-mixed-device");
  EXPECT_EQ(p.frame, 2u);
}

TEST(Place, LossModuleIsAnExpression) {
  std::vector<Frame> frames = {lib("at::_ops::nll_loss_nd::call(at::Tensor const&)"),
                               lib("torch::nn::CrossEntropyLossImpl::forward(at::Tensor const&, at::Tensor const&)"),
                               header("torch::nn::ModuleHolder<torch::nn::CrossEntropyLossImpl>::operator()()"),
                               user("main", 7)};
  Placement p = place(ViolationKind::Device, false, frames);
  EXPECT_EQ(p.check, "tensor-mixed-device");
  EXPECT_EQ(p.frame, 3u);
}

TEST(Place, MixedDeviceAtTheInnermostUserFrame) {
  std::vector<Frame> frames = {lib("at::_ops::add_Tensor::call(at::Tensor const&)"),
                               header("at::Tensor::add_(at::Tensor const&, c10::Scalar const&) const"),
                               user("count(at::Tensor&, at::Tensor&)", 125), user("main", 150)};
  Placement p = place(ViolationKind::Device, false, frames);
  EXPECT_EQ(p.check, "tensor-mixed-device");
  EXPECT_EQ(p.frame, 2u);
}

TEST(Place, NoUserFrame) {
  std::vector<Frame> frames = {lib("at::_ops::mm::call(at::Tensor const&)"),
                               lib("torch::autograd::Engine::thread_main()")};
  EXPECT_EQ(place(ViolationKind::Device, false, frames).frame, npos);
}

TEST(Place, DiscardedCastByTheUser) {
  std::vector<Frame> frames = {lib("at::native::_to_copy(at::Tensor const&)"),
                               lib("at::_ops::_to_copy::call(at::Tensor const&)"),
                               lib(""),
                               lib("torch::autograd::VariableType::(anonymous namespace)::_to_copy()"),
                               lib("at::native::to(at::Tensor const&)"),
                               lib("at::_ops::to_device::call(at::Tensor const&)"),
                               header("at::Tensor::to(c10::Device, bool, bool) const"),
                               user("main", 43)};
  Placement p = place(ViolationKind::DiscardedCast, false, frames);
  EXPECT_EQ(p.check, "tensor-discarded-cast");
  EXPECT_EQ(p.frame, 7u);
}

TEST(Place, DiscardedCastByTheLibraryIsNotReported) {
  std::vector<Frame> frames = {lib("at::native::_to_copy(at::Tensor const&)"),
                               lib("at::_ops::to_device::call(at::Tensor const&)"),
                               lib("void torch::nn::Module::to_impl<c10::Device&, bool&>(c10::Device&, bool&)"),
                               lib("torch::nn::Module::to(c10::Device, bool)"), user("main", 12)};
  EXPECT_EQ(place(ViolationKind::DiscardedCast, false, frames).frame, npos);
}

}  // namespace
}  // namespace tensor_run
