//===- KernelABI.cpp - the arguments of generated kernels -----------------===//
//
// Part of the CoroGPU project.
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Runner/KernelABI.h"
#include "CoroGPU/Target/Passes.h"
#include "corogpu/runtime/BoundsCheckABI.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/Support/MathExtras.h"

#include <cstring>

using namespace mlir;
using namespace mlir::coro;
using namespace mlir::coro::runner;
namespace rt = corogpu::runtime;

static bool parseScalar(StringRef text, Type type, unsigned argument,
                        bool wideIndex, rt::KernelArg &arg, std::string &error);

/// The bytes of a vector argument: its elements, comma-separated in `text`,
/// one after the other (SPIR-V kernels load it from a buffer, PTX kernels
/// take it by value).
static bool parseVector(StringRef text, VectorType type, unsigned argument,
                        bool wideIndex, rt::KernelArg &arg,
                        std::string &error) {
  SmallVector<StringRef> elements;
  text.split(elements, ',');
  std::string typeName;
  llvm::raw_string_ostream os(typeName);
  os << type;
  if (type.getRank() != 1 || type.isScalable()) {
    error = ("argument #" + llvm::Twine(argument) + " is " + typeName +
             "; the kernels take vectors of one fixed dimension")
                .str();
    return false;
  }
  if (static_cast<int64_t>(elements.size()) != type.getNumElements()) {
    error = ("argument #" + llvm::Twine(argument) + " is " + typeName +
             ", but '" + text + "' has " + llvm::Twine(elements.size()) +
             (elements.size() == 1 ? " element" : " elements") +
             " (write them comma-separated)")
                .str();
    return false;
  }
  Type elementType = type.getElementType();
  if (!wideIndex && !coro::isSPIRVVectorArgumentType(type)) {
    error = ("argument #" + llvm::Twine(argument) + " is " + typeName + ": " +
             coro::kSPIRVVectorArgumentTypes)
                .str();
    return false;
  }
  // Each element in its own width (a narrow integer's low bytes: the
  // values are little-endian).
  size_t width = elementType.isIndex()
                     ? (wideIndex ? 8 : 4)
                     : elementType.getIntOrFloatBitWidth() / 8;
  arg = rt::KernelArg();
  for (StringRef element : elements) {
    rt::KernelArg scalar;
    if (!parseScalar(element.trim(), elementType, argument, wideIndex, scalar,
                     error)) {
      // Say it of the vector, with the reason (a range) if there is one.
      StringRef reason = StringRef(error).ends_with(")")
                             ? StringRef(error).substr(error.rfind(" ("))
                             : StringRef();
      std::string elementName;
      llvm::raw_string_ostream elementOs(elementName);
      elementOs << elementType;
      error = ("argument #" + llvm::Twine(argument) + " is " + typeName +
               ", but its element '" + element.trim() + "' is not a value of " +
               elementName + reason)
                  .str();
      return false;
    }
    if (width == 0 || scalar.scalar.size() < width) {
      error = ("argument #" + llvm::Twine(argument) + " is " + typeName +
               ": its elements cannot be passed")
                  .str();
      return false;
    }
    arg.scalar.insert(arg.scalar.end(), scalar.scalar.begin(),
                      scalar.scalar.begin() + width);
  }
  // A PTX kernel takes a vector parameter of a power-of-two size (a
  // vector<3xf32> in 16 bytes); SPIR-V kernels load the elements packed.
  if (wideIndex)
    arg.scalar.resize(llvm::PowerOf2Ceil(arg.scalar.size()));
  return true;
}

/// The bytes of a scalar kernel argument of `type`; index is 32-bit in
/// SPIR-V kernels and 64-bit in PTX ones (`wideIndex`).
static bool parseScalar(StringRef text, Type type, unsigned argument,
                        bool wideIndex, rt::KernelArg &arg,
                        std::string &error) {
  if (auto vector = dyn_cast<VectorType>(type))
    return parseVector(text, vector, argument, wideIndex, arg, error);
  auto bad = [&] {
    std::string typeName;
    llvm::raw_string_ostream os(typeName);
    os << type;
    error = ("argument #" + llvm::Twine(argument) + " is " + typeName +
             ", but '" + text + "' is not a value of that type")
                .str();
    return false;
  };
  if (auto floatType = dyn_cast<FloatType>(type)) {
    // Parsed in the type's own format (rounded once) and passed in its
    // width: f16 and bf16 in 2 bytes, f32 in 4, f64 in 8.
    unsigned width = floatType.getWidth();
    if (width != 16 && width != 32 && width != 64) {
      error = ("argument #" + llvm::Twine(argument) +
               " has a type that cannot be passed " +
               "(floats of 16, 32 or 64 bits)")
                  .str();
      return false;
    }
    llvm::APFloat value(floatType.getFloatSemantics());
    llvm::Expected<llvm::APFloat::opStatus> status =
        value.convertFromString(text, llvm::APFloat::rmNearestTiesToEven);
    if (!status) {
      llvm::consumeError(status.takeError());
      return bad();
    }
    if ((*status & llvm::APFloat::opOverflow) && !value.isNaN()) {
      bad();
      error += " (out of range)";
      return false;
    }
    // SPIR-V has no bf16: its conversion keeps bf16 values in f32s.
    if (floatType.isBF16() && !wideIndex) {
      bool lost;
      value.convert(llvm::APFloat::IEEEsingle(),
                    llvm::APFloat::rmNearestTiesToEven, &lost);
      width = 32;
    }
    uint64_t bits = value.bitcastToAPInt().getZExtValue();
    arg = rt::KernelArg();
    arg.scalar.resize(width / 8);
    std::memcpy(arg.scalar.data(), &bits, width / 8);
    return true;
  }
  if (type.isIndex() || type.isInteger(32) || type.isInteger(64) ||
      type.isInteger(16) || type.isInteger(8)) {
    int64_t value;
    if (text.getAsInteger(0, value))
      return bad();
    bool wide = type.isInteger(64) || (type.isIndex() && wideIndex);
    // A narrower integer takes its signed or its unsigned range (an index
    // is 32-bit in SPIR-V kernels); nothing is truncated silently.
    unsigned width = wide             ? 64
                     : type.isIndex() ? 32
                                      : type.getIntOrFloatBitWidth();
    if (width < 64 && (value < -(int64_t(1) << (width - 1)) ||
                       value >= (int64_t(1) << width))) {
      bad();
      error += " (out of range for " + std::to_string(width) + " bits)";
      return false;
    }
    arg = wide ? rt::KernelArg::ofScalar<int64_t>(value)
               : rt::KernelArg::ofScalar<int32_t>(value);
    return true;
  }
  error = ("argument #" + llvm::Twine(argument) +
           " has a type that cannot be passed " + "(i1 is not supported yet)")
              .str();
  return false;
}

llvm::Expected<rt::KernelArg>
mlir::coro::runner::parseScalarArgument(StringRef text, Type type,
                                        unsigned argument, bool wideIndex) {
  rt::KernelArg arg;
  std::string error;
  if (!parseScalar(text, type, argument, wideIndex, arg, error))
    return llvm::createStringError(llvm::inconvertibleErrorCode(), error);
  return arg;
}

void mlir::coro::runner::appendMemRefArgument(std::vector<rt::KernelArg> &args,
                                              bool ptxABI, rt::Buffer &buffer,
                                              ArrayRef<int64_t> sizes) {
  if (!ptxABI) {
    args.push_back(rt::KernelArg::ofBuffer(buffer));
    return;
  }
  args.push_back(rt::KernelArg::ofAddress(buffer));
  args.push_back(rt::KernelArg::ofAddress(buffer));
  args.push_back(rt::KernelArg::ofScalar<int64_t>(0));
  int64_t stride = 1;
  SmallVector<int64_t> strides(sizes.size());
  for (int64_t dim = sizes.size() - 1; dim >= 0; --dim) {
    strides[dim] = stride;
    stride *= sizes[dim];
  }
  for (int64_t size : sizes)
    args.push_back(rt::KernelArg::ofScalar<int64_t>(size));
  for (int64_t each : strides)
    args.push_back(rt::KernelArg::ofScalar<int64_t>(each));
}

std::vector<rt::KernelArg> mlir::coro::runner::buildKernelArguments(
    bool ptxABI, std::array<uint32_t, 3> grid, ArrayRef<Type> argumentTypes,
    ArrayRef<rt::KernelArg> scalars,
    ArrayRef<std::unique_ptr<rt::Buffer>> deviceBuffers,
    ArrayRef<HostBuffer> buffers) {
  std::vector<rt::KernelArg> args;
  args.reserve(grid.size() + argumentTypes.size());
  for (uint32_t extent : grid)
    args.push_back(ptxABI ? rt::KernelArg::ofScalar<int64_t>(extent)
                          : rt::KernelArg::ofScalar<int32_t>(extent));
  size_t nextScalar = 0, nextBuffer = 0;
  for (Type type : argumentTypes) {
    auto memref = dyn_cast<MemRefType>(type);
    if (!memref) {
      args.push_back(scalars[nextScalar++]);
      continue;
    }
    rt::Buffer &buffer = *deviceBuffers[nextBuffer];
    size_t count = buffers[nextBuffer++].count;
    SmallVector<int64_t> sizes = memref.hasStaticShape()
                                     ? llvm::to_vector(memref.getShape())
                                     : SmallVector<int64_t>{int64_t(count)};
    appendMemRefArgument(args, ptxABI, buffer, sizes);
  }
  return args;
}

llvm::Expected<HostBuffer>
mlir::coro::runner::createViolationBuffer(BoundsCheckAttr boundsCheck,
                                          ArrayRef<Type> userArgumentTypes,
                                          ArrayRef<HostBuffer> buffers) {
  namespace bounds = corogpu::runtime::bounds;
  std::vector<uint32_t> words(bounds::getViolationBufferWords(
      userArgumentTypes.size(), boundsCheck.getRecords()));
  size_t nextBuffer = 0;
  for (auto [index, type] : llvm::enumerate(userArgumentTypes)) {
    if (!isa<MemRefType>(type))
      continue;
    size_t count = buffers[nextBuffer++].count;
    if (count > UINT32_MAX)
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "buffer " + llvm::Twine(nextBuffer - 1) +
              " has more than 2^32 - 1 elements, more than bounds checks "
              "count");
    words[bounds::kFirstArgumentSize + index] = count;
  }
  HostBuffer violations = HostBuffer::getZeros(
      IntegerType::get(boundsCheck.getContext(), 32), words.size());
  std::memcpy(violations.bytes.data(), words.data(), violations.bytes.size());
  return violations;
}
