// REQUIRES: libtorch
// RUN: %check_tidy %s tensor-mixed-dtype %t -- -- %libtorch

// An OpenCV image's `data` is an `uchar *` whatever its pixels are; its
// depth says what they are: cv::imread gives 8-bit pixels, convertTo(dst,
// CV_32F) float ones, cvtColor and resize keep their source's.
// torch::from_blob(image.data, ..., dtype) with another dtype gives garbage
// values and no error. The depth counts when every write to the image in
// its function agrees.
#include <string>
#include <torch/torch.h>

// OpenCV's declarations, as far as these tests need them (the checks know
// them by name; their signatures are OpenCV 4's).
#define CV_8U 0
#define CV_32F 5
#define CV_MAKETYPE(depth, cn) ((depth) + (((cn) - 1) << 3))
#define CV_8UC3 CV_MAKETYPE(CV_8U, 3)
#define CV_32FC3 CV_MAKETYPE(CV_32F, 3)
namespace cv {
typedef std::string String;
enum ImreadModes { IMREAD_UNCHANGED = -1, IMREAD_GRAYSCALE = 0, IMREAD_COLOR = 1, IMREAD_ANYDEPTH = 2 };
enum ColorConversionCodes { COLOR_BGR2RGB = 4 };
struct Size {
  Size(int width, int height);
};
class Mat;
class _InputArray {
public:
  _InputArray(const Mat &m);
};
class _OutputArray : public _InputArray {
public:
  _OutputArray(Mat &m);
};
typedef const _InputArray &InputArray;
typedef const _OutputArray &OutputArray;
class Mat {
public:
  Mat();
  Mat(int rows, int cols, int type);
  Mat(const Mat &m);
  Mat &operator=(const Mat &m);
  Mat clone() const;
  void convertTo(OutputArray m, int rtype, double alpha = 1, double beta = 0) const;
  void create(int rows, int cols, int type);
  template <typename T> T *ptr(int i0 = 0);
  int rows, cols;
  unsigned char *data;
};
Mat imread(const String &filename, int flags = IMREAD_COLOR);
void cvtColor(InputArray src, OutputArray dst, int code, int dstCn = 0);
void resize(InputArray src, OutputArray dst, Size dsize, double fx = 0, double fy = 0, int interpolation = 1);
class VideoCapture {
public:
  virtual VideoCapture &operator>>(Mat &image);
  virtual bool read(OutputArray image);
};
} // namespace cv

// --- Bugs --------------------------------------------------------------------

torch::Tensor bytes_as_float(const std::string &path) {
  cv::Mat image = cv::imread(path);
  cv::resize(image, image, cv::Size(224, 224));
  cv::cvtColor(image, image, cv::COLOR_BGR2RGB);
  return torch::from_blob(image.data, {1, 224, 224, 3}, torch::kFloat32);
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: from_blob reads 'image.data', the pixels of image 'image', as float32; they are uint8 [tensor-mixed-dtype]
  // CHECK-MESSAGES: :[[@LINE-2]]:57: note: float32 is asked for here
}

torch::Tensor float_as_bytes(const std::string &path) {
  cv::Mat img = cv::imread(path);
  cv::Mat img_float;
  img.convertTo(img_float, CV_32F, 1.0 / 255);
  return torch::from_blob(img_float.data, {img.rows, img.cols, 3}, at::kByte).to(torch::kFloat);
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: from_blob reads 'img_float.data', the pixels of image 'img_float', as uint8; they are float32 [tensor-mixed-dtype]
  // CHECK-MESSAGES: :[[@LINE-2]]:68: note: uint8 is asked for here
}

torch::Tensor frame_as_default(cv::VideoCapture &cap) {
  cv::Mat frame;
  cap >> frame;
  cv::Mat rgb;
  cv::cvtColor(frame, rgb, cv::COLOR_BGR2RGB);
  return torch::from_blob(rgb.data, {1, rgb.rows, rgb.cols, 3});
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: from_blob reads 'rgb.data', the pixels of image 'rgb', as float32; they are uint8 [tensor-mixed-dtype]
  // CHECK-MESSAGES: :[[@LINE-2]]:10: note: no dtype given: the default dtype, float32
}

torch::Tensor made_float(int h, int w) {
  cv::Mat m(h, w, CV_32FC3);
  return torch::from_blob(m.data, {h, w, 3}, torch::kUInt8);
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: from_blob reads 'm.data', the pixels of image 'm', as uint8; they are float32 [tensor-mixed-dtype]
  // CHECK-MESSAGES: :[[@LINE-2]]:46: note: uint8 is asked for here
}

// --- Clean -------------------------------------------------------------------

// Converted in place: the writes disagree, so the depth is not known.
torch::Tensor in_place(const std::string &path) {
  cv::Mat img = cv::imread(path);
  img.convertTo(img, CV_32FC3, 1.0 / 255);
  return torch::from_blob(img.data, {img.rows, img.cols, 3}, torch::kFloat);
}

torch::Tensor matching(const std::string &path, cv::VideoCapture &cap) {
  cv::Mat img = cv::imread(path);
  cv::Mat f;
  img.convertTo(f, CV_32F, 1.0 / 255);
  cv::Mat frame;
  cap.read(frame);
  cv::Mat copy = frame.clone();
  auto a = torch::from_blob(img.data, {img.rows, img.cols, 3}, torch::kByte);
  auto b = torch::from_blob(f.data, {img.rows, img.cols, 3});
  auto c = torch::from_blob(copy.data, {copy.rows, copy.cols, 3}, torch::kUInt8);
  return a.to(torch::kFloat) + b + c;
}

// Any depth, or a write the analysis does not know.
void helper(cv::Mat &m);
torch::Tensor not_known(const std::string &path, cv::Mat param) {
  cv::Mat any = cv::imread(path, cv::IMREAD_UNCHANGED);
  auto a = torch::from_blob(any.data, {any.rows, any.cols}, torch::kFloat);
  cv::Mat img = cv::imread(path);
  helper(img);
  auto b = torch::from_blob(img.data, {img.rows, img.cols}, torch::kFloat);
  auto c = torch::from_blob(param.data, {param.rows, param.cols}, torch::kFloat);
  cv::Mat made;
  made.create(4, 4, CV_8UC3);
  made.create(4, 4, CV_32FC3);
  auto d = torch::from_blob(made.data, {4, 4, 3}, torch::kFloat);
  return a + b + c + d;
}

// An image a lambda captures: the enclosing function converts it, which the
// lambda's body does not show.
torch::Tensor captured(const std::string &path) {
  cv::Mat img = cv::imread(path);
  img.convertTo(img, CV_32FC3, 1.0 / 255);
  auto wrap = [&] { return torch::from_blob(img.data, {img.rows, img.cols, 3}, torch::kFloat); };
  return wrap();
}
