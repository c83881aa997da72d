// REQUIRES: libtorch
// RUN: %check_tidy %s tensor-mixed-device %t -- -- %libtorch

// torch::from_blob does not copy: the tensor it makes reads the buffer's
// memory as memory of the tensor's device. Host memory (a container's
// data(), an array, new[], an OpenCV image's pixels) wrapped as a cuda
// tensor, or a cuda tensor's data_ptr() wrapped as a cpu tensor, crashes or
// fails in getDeviceFromPtr. Memory the code does not show (a parameter, a
// pointer set again, cudaMalloc) is not judged.
#include <torch/torch.h>
#include <string>
#include <vector>

// OpenCV's image class, as far as these tests need it (the checks know it
// by name: cv::Mat's pixels are host memory).
namespace cv {
struct Mat {
  Mat();
  Mat(int rows, int cols, int type, void *data, unsigned long step = 0);
  int rows = 0, cols = 0;
  unsigned char *data = nullptr;
  template <typename T> T *ptr(int row = 0);
};
Mat imread(const std::string &filename, int flags = 1);
} // namespace cv
int cudaHostRegister(void *ptr, unsigned long size, unsigned int flags);
template <typename T> struct PinnedAllocator {
  using value_type = T;
  T *allocate(unsigned long n);
  void deallocate(T *p, unsigned long n);
};

// --- Bugs --------------------------------------------------------------------

void device_memory_as_cpu_tensor() {
  auto ten = torch::randn({3, 10}, torch::kCUDA);
  auto p = ten.data_ptr<float>();
  auto ten2 = torch::from_blob(p, {3, 10});
  // CHECK-MESSAGES: :[[@LINE-1]]:32: warning: from_blob wraps 'p', memory of 'ten' on cuda, as a tensor on cpu; it does not copy [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-2]]:15: note: no device given: the cpu
  // CHECK-MESSAGES: :[[@LINE-5]]:14: note: 'ten' is on cuda: created here
  auto same = torch::from_blob(ten.data_ptr(), ten.sizes(), torch::kFloat);
  // CHECK-MESSAGES: :[[@LINE-1]]:32: warning: from_blob wraps 'ten.data_ptr()', memory of 'ten' on cuda, as a tensor on cpu; it does not copy [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-2]]:61: note: cpu is asked for here
  // CHECK-MESSAGES: :[[@LINE-9]]:14: note: 'ten' is on cuda: created here
  (void)ten2, (void)same;
}

void host_memory_as_cuda_tensor(torch::Device device, const std::string &path) {
  std::vector<float> values(12, 1.0f);
  auto a = torch::from_blob(values.data(), {3, 4}, torch::TensorOptions().device(torch::kCUDA));
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: from_blob wraps host memory 'values.data()' as a tensor on cuda; it does not copy (wrap it on the cpu, then move the tensor) [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-2]]:52: note: cuda is asked for here
  cv::Mat image = cv::imread(path);
  auto b = torch::from_blob(image.data, {1, image.rows, image.cols, 3},
                            torch::TensorOptions().dtype(torch::kByte).device(torch::kCUDA));
  // CHECK-MESSAGES: :[[@LINE-2]]:29: warning: from_blob wraps host memory 'image.data' as a tensor on cuda; it does not copy (wrap it on the cpu, then move the tensor) [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-2]]:29: note: cuda is asked for here
  float *row = image.ptr<float>(0);
  auto c = torch::from_blob(row, {image.cols}, torch::TensorOptions().device(device));
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: from_blob wraps host memory 'row' as a tensor on 'device'; it does not copy (wrap it on the cpu, then move the tensor) [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-2]]:48: note: 'device' is asked for here
  float buffer[8] = {};
  auto d = torch::from_blob(buffer + 4, {4}, torch::dtype(torch::kFloat).device(torch::kCUDA, 0));
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: from_blob wraps host memory 'buffer + 4' as a tensor on cuda; it does not copy (wrap it on the cpu, then move the tensor) [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-2]]:46: note: cuda is asked for here
  (void)a, (void)b, (void)c, (void)d;
}

// --- Clean -------------------------------------------------------------------

void same_device(torch::Tensor any) {
  auto ten = torch::randn({3, 10}, torch::kCUDA);
  auto a = torch::from_blob(ten.data_ptr(), {3, 10}, ten.options());
  auto b = torch::from_blob(ten.data_ptr<float>(), {30}, torch::TensorOptions().device(torch::kCUDA));
  std::vector<float> values(12);
  auto c = torch::from_blob(values.data(), {12}).to(torch::kCUDA);
  cv::Mat image;
  auto d = torch::from_blob(image.data, {image.rows, image.cols}, torch::kByte);
  // Where a parameter's memory is, is not known.
  auto e = torch::from_blob(any.data_ptr(), {3}, torch::kCUDA);
  (void)a, (void)b, (void)c, (void)d, (void)e;
}

void memory_not_shown(float *from_caller, torch::Tensor like) {
  auto a = torch::from_blob(from_caller, {4}, torch::TensorOptions().device(torch::kCUDA));
  // A pointer set again: it may point anywhere by then.
  std::vector<float> host(4);
  float *p = host.data();
  p = from_caller;
  auto b = torch::from_blob(p, {4}, torch::TensorOptions().device(torch::kCUDA));
  // A tensor set again after its pointer was taken: what is known of it at
  // from_blob is not the memory the pointer is into.
  auto ten = torch::randn({4});
  float *q = ten.data_ptr<float>();
  ten = torch::randn({4}, torch::kCUDA);
  auto c = torch::from_blob(q, {4}, torch::TensorOptions().device(torch::kCUDA));
  // A cpu tensor's memory may be pinned, which a cuda tensor can wrap.
  auto staged = torch::empty({4}, torch::TensorOptions().pinned_memory(true));
  auto e = torch::from_blob(staged.data_ptr(), {4}, torch::TensorOptions().device(torch::kCUDA));
  (void)e;
  // Where the tensor's device is not known.
  auto d = torch::from_blob(host.data(), {4}, torch::TensorOptions().device(like.device()));
  (void)a, (void)b, (void)c, (void)d;
}

// Memory the device may reach after all: a custom allocator's, a header
// over memory given to cv::Mat, placement new, registered host memory.
void get_device_buffer(float *&p);
void reachable(void *mapped, float *storage) {
  std::vector<float, PinnedAllocator<float>> pinned(4);
  auto a = torch::from_blob(pinned.data(), {4}, torch::TensorOptions().device(torch::kCUDA));
  cv::Mat frame(480, 640, 16, mapped);
  auto b = torch::from_blob(frame.data, {480, 640, 3}, torch::TensorOptions().device(torch::kCUDA));
  float *placed = new (storage) float[4];
  auto c = torch::from_blob(placed, {4}, torch::TensorOptions().device(torch::kCUDA));
  (void)a, (void)b, (void)c;
}

void registered() {
  std::vector<float> host(4);
  cudaHostRegister(host.data(), 16, 0);
  auto a = torch::from_blob(host.data(), {4}, torch::TensorOptions().device(torch::kCUDA));
  (void)a;
}

// A pointer written through an out-parameter, or where a lambda that
// reads it is not shown.
void written_elsewhere(float *from_caller) {
  std::vector<float> host(4);
  float *p = host.data();
  get_device_buffer(p);
  auto a = torch::from_blob(p, {4}, torch::TensorOptions().device(torch::kCUDA));
  float *q = host.data();
  q = from_caller;
  auto wrap = [&] { return torch::from_blob(q, {4}, torch::TensorOptions().device(torch::kCUDA)); };
  (void)a, (void)wrap;
}
