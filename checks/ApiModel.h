//===--- ApiModel.h - What the tensor APIs look like to the checks --------===//
//
// The single place that knows which C++ classes are tensors and modules and
// which of their methods are out-of-place conversions, for LibTorch (at::,
// c10::, torch::) and for this project's runtime (tt::). Every check asks the
// model; none hard-codes an API name. Options extend the built-in lists so
// that other tensor libraries can be taught without a rebuild.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOR_TIDY_CHECKS_APIMODEL_H
#define TENSOR_TIDY_CHECKS_APIMODEL_H

#include "AtenSemantics.h"
#include "ClangTidyCheck.h"
#include "ScalarTypes.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clang::tidy::tensor {

/// Knows the tensor APIs: tensor classes, module classes and out-of-place
/// conversion methods.
///
/// Options (read with getLocalOrGlobal, so they can be set once for all
/// `tensor-*` checks as global CheckOptions or per check):
///  - `TensorClasses`: extra tensor class names (`;`-separated), added to
///    `::at::TensorBase;::at::Tensor;::tt::Tensor`.
///  - `ModuleClasses`: extra module base classes, added to
///    `::torch::nn::Module;::tt::nn::Module`.
///  - `ConversionMethods`: extra out-of-place conversion method names, added
///    to the built-in set (`to`, `toType`, `type_as`, `cuda`, `cpu`, ...).
///  - `CombiningFunctions`: extra functions (qualified names) that combine
///    their tensor arguments and so need them on one device, like `add`.
///  - `BatchClasses`: extra data-loader batch classes whose `data` and
///    `target` members are cpu tensors, like `torch::data::Example`.
/// Class names follow hasAnyName: `::ns::Name` is exact, `Name` or `ns::Name`
/// matches any enclosing namespace. They are compared with the declaration a
/// typedef names, so list `::at::Tensor`, not `torch::Tensor`. A class that
/// derives from a listed class is one too.
class ApiModel {
public:
  explicit ApiModel(const ClangTidyCheck::OptionsView &Options);
  /// The built-in model alone, as with no options set (the analysis' unit
  /// tests use it).
  ApiModel();

  /// Writes the user-supplied extensions back, so --dump-config shows them.
  void storeOptions(const ClangTidyCheck::OptionsView &Options,
                    ClangTidyOptions::OptionMap &Map) const;

  bool isTensorClass(const CXXRecordDecl *RD) const;
  bool isModuleClass(const CXXRecordDecl *RD) const;
  /// A tensor held by value: references and pointers to tensors are not.
  bool isTensorValueType(QualType T) const;
  /// A method of a tensor class, listed as a conversion, that returns a new
  /// tensor by value and so leaves its object unchanged.
  bool isOutOfPlaceConversion(const CXXMethodDecl *MD) const;

  /// c10::Device / tt::Device.
  bool isDeviceClass(const CXXRecordDecl *RD) const;
  /// c10::DeviceType / tt::DeviceType (kCPU, kCUDA).
  bool isDeviceTypeEnum(const EnumDecl *ED) const;
  /// c10::ScalarType / tt::ScalarType (kFloat, kHalf, ...).
  bool isScalarTypeEnum(const EnumDecl *ED) const;
  /// caffe2::TypeMeta, what Tensor::dtype() returns in LibTorch: a dtype
  /// (Tensor::to(TypeMeta) converts to it).
  bool isTypeMetaClass(const CXXRecordDecl *RD) const;
  /// c10::TensorOptions / tt::TensorOptions.
  bool isTensorOptionsClass(const CXXRecordDecl *RD) const;
  /// c10::IValue, the boxed value TorchScript modules take and return
  /// (`module.forward({x}).toTensor()`).
  bool isIValueClass(const CXXRecordDecl *RD) const;
  /// torch::jit::Module: a TorchScript module, whose forward may take any
  /// inputs, 0-dim cpu tensors included.
  bool isScriptModule(const CXXRecordDecl *RD) const;
  /// torch::jit::load: a TorchScript module read from a file or stream,
  /// whose tensors go onto its optional<Device> argument when one is given
  /// (torch/csrc/jit/serialization/import.h), else where they were saved.
  bool isScriptLoad(const FunctionDecl *FD) const;
  /// std::vector<IValue> or std::vector<Tensor>: the inputs a TorchScript
  /// module's forward() takes, filled with push_back.
  bool isInputVector(QualType T) const;
  /// std::vector of module handles (`std::vector<torch::nn::Linear>`): layers
  /// that Module::to and the casts do not reach unless each is registered.
  bool isModuleVector(QualType T) const;
  /// torch::nn::ModuleHolder<T> (what TORCH_MODULE declares): a shared
  /// handle whose `->` and `()` reach the module.
  bool isModuleHolder(const CXXRecordDecl *RD) const;
  /// A value through which a module is used: a module, a holder, or a
  /// std::shared_ptr to a module.
  bool isModuleHandleType(QualType T) const;
  /// The module class behind such a handle (the holder's contained class),
  /// or null.
  const CXXRecordDecl *moduleBehind(QualType T) const;
  /// A module class of LibTorch or tt (torch::nn::Linear, tt::nn::Sequential,
  /// ...): created with its parameters on the cpu in float32. A user-defined
  /// module's constructor may put them anywhere.
  bool isBuiltinModule(const CXXRecordDecl *RD) const;
  /// A built-in layer that owns parameters (Linear, Conv2d, LSTM, ...): it
  /// starts on the cpu in float32. Losses, activations and other layers
  /// without parameters run wherever their input is.
  bool isParameterizedBuiltinModule(const CXXRecordDecl *RD) const;
  /// A built-in layer whose input must have its parameters' dtype: every
  /// parameterized built-in layer except Embedding and EmbeddingBag, whose
  /// input is int64 indices (ATen's linear, convolution, norm and RNN
  /// kernels take one dtype).
  bool takesParameterDtypeInput(const CXXRecordDecl *RD) const;
  /// Embedding and EmbeddingBag: their input is indices, which ATen's
  /// embedding takes as int64 or int32 only (checkScalarTypes("embedding",
  /// indices, {kLong, kInt})).
  bool looksUpIndices(const CXXRecordDecl *RD) const;
  /// A built-in loss module (torch::nn::NLLLoss, MSELoss, ...): its inputs
  /// must share a device, as for the functional losses. CTCLoss is not one:
  /// its lengths may stay on the cpu.
  bool isLossModule(const CXXRecordDecl *RD) const;
  /// A loss module whose target is class indices, as nll_loss's:
  /// NLLLoss, MultiMarginLoss, MultiLabelMarginLoss, and CrossEntropyLoss
  /// (which also takes probabilities in a target of the input's shape).
  enum class ClassIndexTarget { None, Always, UnlessSameShape };
  ClassIndexTarget lossTargetKind(const CXXRecordDecl *RD) const;
  /// torch::data::Example and other batches with cpu `data`/`target`.
  bool isBatchClass(const CXXRecordDecl *RD) const;
  /// A data loader whose iteration yields batches on the cpu:
  /// torch::data::DataLoaderBase (stateless and stateful loaders) and
  /// tt::data::DataLoader, held by value, reference, pointer or unique_ptr.
  bool isDataLoaderType(QualType T) const;

  /// A function or method declared in the tensor APIs' namespaces (torch,
  /// at, c10, tt).
  bool isApiFunction(const FunctionDecl *FD) const;
  /// A class of the tensor API's namespaces (torch::data::Example, say).
  bool isApiClass(const CXXRecordDecl *RD) const;
  /// A function of the tensor API's functional namespace
  /// (torch::nn::functional::cross_entropy), whose options object may hold
  /// tensors the op takes with its inputs.
  bool isFunctional(const FunctionDecl *FD) const;

  /// How a free function of torch::, at:: or tt:: creates a tensor.
  enum class FactoryKind {
    None,
    DefaultFloat, // randn, rand, zeros, ones, empty, eye, linspace, from_blob
    Long,         // randint, randperm
    FromValue,    // tensor, full, arange: dtype from the values
    Like,         // zeros_like, ...: device and dtype of the first argument
  };
  FactoryKind factoryKind(const FunctionDecl *FD) const;

  /// What calling \p FD does to devices and dtypes: which of its
  /// arguments must share a device, which may stay on the cpu, which name
  /// a dtype, and its result's dtype and rank (the ATen semantics table,
  /// AtenSemantics.h). For LibTorch, read from the op schemas of the headers
  /// the translation unit includes; for tt, ATen's op of the same name.
  /// CombiningFunctions are taken to put every tensor argument on one
  /// device. Null when \p FD reaches no ATen op.
  const CallSemantics *callSemantics(const FunctionDecl *FD) const;
  /// Forgets what callSemantics learnt about the previous translation
  /// unit's declarations. Every check calls it when one starts.
  void startTranslationUnit() const;
  /// A tensor, or a list of tensors (TensorList, std::vector<Tensor>,
  /// ITensorListRef), by value or reference: what may carry a device into
  /// an op.
  bool isTensorOrListType(QualType T) const;
  /// A module method that moves or casts the module in place: to, cuda,
  /// cpu, half, bfloat16.
  bool isModuleMove(const CXXMethodDecl *MD) const;
  /// A module or holder method that hands the module to code that may move
  /// it: the holder's `ptr()` and `get()`, `Module::apply(fn)`.
  bool isModuleSharingMethod(const CXXMethodDecl *MD) const;
  /// A module method that returns the module's own parameters or buffers
  /// (parameters, named_parameters, buffers, named_buffers): tensors that
  /// share their TensorImpl with the module's, so rebinding one
  /// (`p.set_data(p.data().cuda())`) moves the module's parameter.
  bool isModuleTensorAccessor(const CXXMethodDecl *MD) const;

  /// A module method that switches its mode or clears its gradients
  /// (eval, train, is_training, zero_grad): it neither moves the module
  /// nor hands it out.
  bool isModuleModeMethod(const CXXMethodDecl *MD) const;
  /// A module's forward(): what `model(x)` and `model->forward(x)` run.
  bool isModuleForward(const CXXMethodDecl *MD) const;
  /// A batch member that holds a tensor from the loader: data, target.
  bool isBatchTensorField(const FieldDecl *FD) const;
  /// torch::load / tt::load: fills its argument from a file, so what the
  /// analysis knew of it no longer holds.
  bool isLoadFunction(const FunctionDecl *FD) const;
  /// torch::from_blob / tt::from_blob: a tensor over the caller's buffer,
  /// read as the dtype its options give (the default dtype without one).
  bool isFromBlob(const FunctionDecl *FD) const;
  /// A tensor method that returns a raw pointer to its elements, in the
  /// tensor's device memory: data_ptr, data, mutable_data_ptr,
  /// const_data_ptr.
  bool isDataPointerMethod(const CXXMethodDecl *MD) const;
  /// The element type a tensor method reads the tensor's memory as, when
  /// ATen checks it against the tensor's dtype ("expected scalar type
  /// Float but found Byte", TensorBase::data_ptr<T> and accessor<T, N>):
  /// `float` for `data_ptr<float>()`, `mutable_data_ptr`, `const_data_ptr`,
  /// `data<T>()`, `accessor<T, N>()` and the packed accessors. Null for any
  /// other method, and for `data_ptr()` without a type.
  QualType typedElementAccess(const CXXMethodDecl *MD) const;
  /// TensorBase::accessor<T, N>(): a TensorAccessor that indexes the data
  /// pointer on the host, whatever the tensor's device (ATen checks its
  /// dtype and rank only). The packed accessors, made for kernels, are not.
  bool isHostAccessor(const CXXMethodDecl *MD) const;
  /// The dtype ATen gives a C++ element type in data_ptr<T>()
  /// (c10::CppTypeToScalarType): dtypeOfElementType, with `uint8_t` as
  /// uint8 and `int8_t` as int8.
  std::optional<DType> dtypeOfAccessedElement(QualType T,
                                              const ASTContext &Ctx) const;
  /// OpenCV's image class (cv::Mat, cv::Mat_<T>): pixels in host memory,
  /// behind its `data` member and ptr<T>() (cv::cuda::GpuMat is not one).
  bool isHostImageClass(const CXXRecordDecl *RD) const;
  /// A host image's pixels: cv::Mat's `data` member or its ptr<T>().
  bool isHostImagePixels(const NamedDecl *D) const;
  /// What an OpenCV call does to the depth (element type) of the image it
  /// writes: cv::imread (8-bit unless its flags ask for any depth),
  /// VideoCapture's `>>` and read() (8-bit frames), src.convertTo(dst,
  /// rtype), the image functions whose dst keeps src's depth (cvtColor,
  /// resize, flip, the blurs, the warps, copyMakeBorder),
  /// src.copyTo(dst), image.create(rows, cols, type); Header for a new
  /// header of its object's pixels (clone, roi, row and column ranges,
  /// reshape); Pixels for an access to its pixels that keeps its depth
  /// (at, ptr, setTo, begin, end); None for anything else.
  enum class ImageCall {
    None,
    Read,
    Grab,
    Convert,
    Keep,
    Copy,
    Create,
    Header,
    Pixels
  };
  ImageCall imageCall(const FunctionDecl *FD) const;
  /// The parameter of an OpenCV call or constructor that takes a matrix
  /// type (`type` of cv::Mat(rows, cols, type) and create, `rtype` of
  /// convertTo), or -1.
  int imageTypeParameter(const FunctionDecl *FD) const;
  /// OpenCV's argument wrappers, which an image passed to its functions is
  /// built into: _InputArray reads it; _OutputArray and _InputOutputArray
  /// may write it.
  enum class ImageArgument { None, Input, Output };
  ImageArgument imageArgument(const CXXRecordDecl *RD) const;
  /// A cv::Mat constructor that makes a header over memory it is given (a
  /// `void *data` parameter), which may be pinned or device-mapped.
  bool imageOverCallerMemory(const CXXConstructorDecl *Ctor) const;
  /// cudaHostRegister: host memory the device can then reach.
  bool isHostRegistration(const FunctionDecl *FD) const;
  /// cv::Scalar: assigned to an image, it sets the pixels, not the depth.
  bool isImageScalar(const CXXRecordDecl *RD) const;
  /// The dtype of an OpenCV depth (CV_8U ... CV_16F, the low 3 bits of a
  /// matrix type such as CV_32FC3); none for CV_16U, which has no dtype
  /// here.
  std::optional<DType> dtypeOfImageDepth(int64_t Depth) const;
  /// The dtype whose elements have the layout of the C++ type \p T:
  /// float, double, bool, 16/32/64-bit signed integers, c10::Half and
  /// c10::BFloat16. None for the character types (a byte buffer may hold
  /// anything), unsigned wider integers, void and everything else.
  std::optional<DType> dtypeOfElementType(QualType T,
                                          const ASTContext &Ctx) const;
  /// A tensor method that makes its object another tensor (set_, set_data,
  /// swap): the object's device and dtype are those of the argument.
  bool isRebindingMethod(const CXXMethodDecl *MD) const;

  /// What a c10::DeviceType / tt::DeviceType enumerator names: kCPU the
  /// cpu, kCUDA a cuda device; the others (MPS, XLA, ...) nullopt.
  enum class DeviceKind { Cpu, Cuda };
  std::optional<DeviceKind> deviceKindOf(const EnumConstantDecl *EC) const;
  /// The dtype a c10::ScalarType / tt::ScalarType enumerator names (kHalf,
  /// kFloat, kLong, ...), or nullopt for the others (complex, quantized).
  std::optional<DType> dtypeOf(const EnumConstantDecl *EC) const;

  /// torch::nn::Module's registration methods: register_module,
  /// register_parameter, register_buffer (tt's too).
  enum class Registration { None, Module, Parameter, Buffer };
  Registration registration(const CXXMethodDecl *MD) const;
  /// A built-in container (Sequential, ModuleList, ModuleDict): its
  /// parameters are those of the modules it is given.
  bool isContainerModule(const CXXRecordDecl *RD) const;

  /// A tensor method that reads a property: `device()`, `scalar_type()` or
  /// `dtype()`, `options()`.
  enum class TensorProperty { None, Device, DType, Options };
  TensorProperty tensorProperty(const CXXMethodDecl *MD) const;
  /// What a TensorOptions setter sets: TensorOptions::device(d) and dtype(t),
  /// and the free helpers torch::device(d), torch::dtype(t) that make one;
  /// Neutral for those that leave device and dtype alone (requires_grad,
  /// pinned_memory, layout, memory_format); Other for anything else.
  enum class OptionsSetter { Other, Device, DType, Neutral };
  OptionsSetter optionsSetter(const FunctionDecl *FD) const;
  /// c10::Device's string form ("cpu", "cuda", "cuda:1"), as Device("...")
  /// parses it: cuda or not, and the index (-1: none).
  struct DeviceName {
    bool Cuda = false;
    int Index = -1;
  };
  std::optional<DeviceName> parseDeviceString(llvm::StringRef S) const;
  /// How an out-of-place conversion (isOutOfPlaceConversion) changes its
  /// tensor: to(...), cuda(), cpu(), half(), bfloat16(), toType(t),
  /// type_as(other); Keeps for those that keep device and dtype
  /// (contiguous, clone, detach, pin_memory).
  enum class Conversion {
    To,
    Cuda,
    Cpu,
    Half,
    BFloat16,
    ToType,
    TypeAs,
    Keeps
  };
  Conversion conversionKind(const CXXMethodDecl *MD) const;
  /// How a module move (isModuleMove) changes its module.
  enum class ModuleMove { To, Cuda, Cpu, Half, BFloat16 };
  ModuleMove moduleMoveKind(const CXXMethodDecl *MD) const;
  /// c10::optional or std::optional.
  bool isOptionalClass(const CXXRecordDecl *RD) const;
  /// c10::IValue::toTensor(): a TorchScript module's output as a tensor.
  bool isIValueToTensor(const CXXMethodDecl *MD) const;
  /// What gives a factory's result its number of dimensions: its sizes
  /// argument (zeros, randn, ...), the nesting of its values (tensor), or its
  /// kind (scalar_tensor: 0; arange, linspace, logspace, randperm: 1;
  /// eye: 2).
  enum class FactoryShape { Sizes, Values, Scalar, Vector, Matrix };
  FactoryShape factoryShape(const FunctionDecl *FD) const;
  /// torch::set_default_dtype / tt::set_default_dtype.
  bool isSetDefaultDtype(const FunctionDecl *FD) const;
  /// ATen's in-place twins are named with a trailing underscore: add_ for
  /// add. The twin's name, and whether a name is an in-place one.
  std::string inPlaceTwinName(llvm::StringRef Name) const;
  bool isInPlaceName(llvm::StringRef Name) const;
  /// How a torch::tensor value list's element was converted to LibTorch's
  /// value container (torch::detail::TensorDataContainer), by the
  /// constructor \p Ctor: from a nested braced list (List), or from values
  /// of one C++ type (Values, with that type's dtype in \p Element as
  /// c10::CppTypeToScalarType gives it: a scalar, an ArrayRef<T>, a
  /// std::vector<T>; nullopt for the complex types). Other constructors,
  /// and other classes' (tt::tensor takes a std::initializer_list<T>),
  /// are None.
  enum class ValueElement { None, List, Values };
  ValueElement valueElement(const CXXConstructorDecl *Ctor,
                            std::optional<DType> &Element) const;
  /// c10::ArrayRef (IntArrayRef, TensorList) and tt::IntArrayRef: a view of
  /// values whose one-argument constructor makes a one-element list.
  bool isArrayRefClass(const CXXRecordDecl *RD) const;
  /// The forward() methods a module class declares.
  llvm::SmallVector<const CXXMethodDecl *, 2>
  forwardMethods(const CXXRecordDecl *Module) const;

  /// Identifies this configuration: checks whose models agree share one
  /// analysis per function.
  const std::string &configurationKey() const { return Key; }

private:
  std::vector<std::string> ExtraTensorClasses;
  std::vector<std::string> ExtraModuleClasses;
  std::vector<std::string> ExtraConversionMethods;
  // Built-in plus extra names.
  std::vector<std::string> TensorClasses;
  std::vector<std::string> ModuleClasses;
  std::vector<std::string> ConversionMethods;
  std::vector<std::string> ExtraCombiningFunctions;
  std::vector<std::string> ExtraBatchClasses;
  std::vector<std::string> BatchClasses;
  std::string Key;
  /// Derived per declaration, per translation unit.
  mutable std::unique_ptr<AtenSemantics> Semantics;

  /// Reads each option through \p Get (its value, or "" when unset).
  explicit ApiModel(llvm::function_ref<std::string(llvm::StringRef)> Get);
};

} // namespace clang::tidy::tensor

#endif // TENSOR_TIDY_CHECKS_APIMODEL_H
