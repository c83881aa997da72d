//===--- Images.h - The element type of an OpenCV image variable ----------===//
//
// LibTorch code reads images with OpenCV and wraps their pixels with
// `torch::from_blob(image.data, ...)`, which reads the bytes as whatever
// dtype it is asked for: an 8-bit image read as float32, or a CV_32F image
// read as uint8, gives garbage values and no error. cv::Mat's `data` is an
// `uchar *` whatever the image holds, so the pixels' type is its depth,
// which the code sets: cv::imread gives 8-bit images, convertTo(dst, CV_32F)
// float ones, cvtColor and resize keep their source's.
//
// The depth of a local image variable is known when every write to it in
// its function sets one depth (writes from itself, such as an in-place
// resize, keep it); a write the analysis does not know, a parameter, or
// writes that disagree (an in-place convertTo) leave it unknown. It is not
// flow-sensitive: an image converted later in the function is unknown
// everywhere.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOR_TIDY_CHECKS_ANALYSIS_IMAGES_H
#define TENSOR_TIDY_CHECKS_ANALYSIS_IMAGES_H

#include "../ApiModel.h"
#include "clang/AST/Decl.h"
#include <optional>

namespace clang::tidy::tensor::analysis {

/// The dtype of the elements of local OpenCV image \p Image in \p Fn, when
/// every write to it agrees; none otherwise.
std::optional<DType> imageElementType(const VarDecl *Image,
                                      const FunctionDecl *Fn,
                                      const ApiModel &Api);

} // namespace clang::tidy::tensor::analysis

#endif // TENSOR_TIDY_CHECKS_ANALYSIS_IMAGES_H
