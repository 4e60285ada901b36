//===- KernelABI.cpp - the arguments of generated kernels -----------------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Runner/KernelABI.h"
#include "CoroGPU/Target/Passes.h"
#include "corogpu/runtime/BoundsCheckABI.h"
#include "corogpu/runtime/LaneProfileABI.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/Support/MathExtras.h"

#include <cstring>

using namespace mlir;
using namespace mlir::coro;
using namespace mlir::coro::runner;
namespace rt = corogpu::runtime;

static std::string printType(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

/// Whether `type` is a vector of i1, which LLVM keeps in host memory one bit
/// per element (element i in bit i % 8 of byte i / 8).
static bool isBitVector(Type type) {
  auto vector = dyn_cast<VectorType>(type);
  return vector && vector.getElementType().isInteger(1);
}

/// Bytes of a value of `type` in host memory, as LLVM lays it out: index
/// 64 bits, a vector its elements one after the other (bits for i1).
static size_t getHostSize(Type type) {
  if (isBitVector(type))
    return llvm::divideCeil(cast<VectorType>(type).getNumElements(), 8);
  if (auto vector = dyn_cast<VectorType>(type))
    return vector.getNumElements() * getHostSize(vector.getElementType());
  if (type.isIndex())
    return 8;
  return (type.getIntOrFloatBitWidth() + 7) / 8;
}

/// The kernel argument of `type` from its value `host`, as the host keeps
/// it (getHostSize bytes). This is the kernel ABI of scalars: integers
/// narrower than 64 bits in 32 (an index too in SPIR-V kernels, in PTX ones
/// in 64), floats in their width (bf16 in an f32 for SPIR-V, whose
/// conversion keeps bf16 values in f32s), vectors their elements packed (a
/// PTX parameter padded to a power of two).
static bool toKernelArgument(Type type, ArrayRef<uint8_t> host,
                             unsigned argument, bool wideIndex,
                             rt::KernelArg &arg, std::string &error) {
  auto cannot = [&](const llvm::Twine &why) {
    error = ("argument #" + llvm::Twine(argument) + " is " + printType(type) +
             ": " + why)
                .str();
    return false;
  };
  arg = rt::KernelArg();
  if (auto vector = dyn_cast<VectorType>(type)) {
    if (vector.getRank() != 1 || vector.isScalable())
      return cannot("the kernels take vectors of one fixed dimension");
    if (!wideIndex && !coro::isSPIRVVectorArgumentType(vector))
      return cannot(coro::kSPIRVVectorArgumentTypes);
    Type elementType = vector.getElementType();
    size_t hostSize = getHostSize(elementType);
    // Each element in its own width (a narrow integer's low bytes: the
    // values are little-endian); in SPIR-V kernels i1 and i8 in 32 bits,
    // as coro-spirv-kernel-arguments widens them.
    Type passedType =
        wideIndex ? elementType : coro::getSPIRVKernelArgumentType(elementType);
    size_t width = elementType.isIndex()
                       ? (wideIndex ? 8 : 4)
                       : passedType.getIntOrFloatBitWidth() / 8;
    for (int64_t i = 0, e = vector.getNumElements(); i < e; ++i) {
      rt::KernelArg element;
      uint8_t bit = 0;
      ArrayRef<uint8_t> elementHost;
      if (isBitVector(vector)) {
        bit = (host[i / 8] >> (i % 8)) & 1;
        elementHost = ArrayRef<uint8_t>(bit);
      } else {
        elementHost = host.slice(i * hostSize, hostSize);
      }
      if (!toKernelArgument(elementType, elementHost, argument, wideIndex,
                            element, error))
        return false;
      if (width == 0 || element.scalar.size() < width)
        return cannot("its elements cannot be passed");
      arg.scalar.insert(arg.scalar.end(), element.scalar.begin(),
                        element.scalar.begin() + width);
    }
    if (wideIndex)
      arg.scalar.resize(llvm::PowerOf2Ceil(arg.scalar.size()));
    return true;
  }
  if (auto floatType = dyn_cast<FloatType>(type)) {
    unsigned width = floatType.getWidth();
    if (width != 16 && width != 32 && width != 64)
      return cannot("it cannot be passed (floats of 16, 32 or 64 bits)");
    if (floatType.isBF16() && !wideIndex) {
      uint16_t bits;
      std::memcpy(&bits, host.data(), 2);
      llvm::APFloat value(floatType.getFloatSemantics(), llvm::APInt(16, bits));
      bool lost;
      value.convert(llvm::APFloat::IEEEsingle(),
                    llvm::APFloat::rmNearestTiesToEven, &lost);
      arg = rt::KernelArg::ofScalar<float>(value.convertToFloat());
      return true;
    }
    arg.scalar.assign(host.begin(), host.begin() + width / 8);
    return true;
  }
  unsigned width = type.isIndex() ? 64 : type.getIntOrFloatBitWidth();
  if (width != 1 && width != 8 && width != 16 && width != 32 && width != 64)
    return cannot("it cannot be passed (integers of 1, 8, 16, 32 or 64 bits)");
  // Sign-extended from its width; an i1 is 0 or 1 (its host byte's low bit).
  uint64_t bits = 0;
  std::memcpy(&bits, host.data(), llvm::divideCeil(width, 8));
  int64_t value = width == 1    ? int64_t(bits & 1)
                  : width == 64 ? int64_t(bits)
                                : llvm::SignExtend64(bits, width);
  if (type.isInteger(64) || (type.isIndex() && wideIndex)) {
    arg = rt::KernelArg::ofScalar<int64_t>(value);
    return true;
  }
  // An index is 32 bits in SPIR-V kernels: its signed or unsigned range.
  if (type.isIndex() && (value < INT32_MIN || value > int64_t(UINT32_MAX))) {
    error = ("argument #" + llvm::Twine(argument) + " is index, but " +
             llvm::Twine(value) +
             " is not a value of that type (out of range for 32 bits)")
                .str();
    return false;
  }
  arg = rt::KernelArg::ofScalar<int32_t>(int32_t(value));
  return true;
}

/// Parses `text` as a value of `type` into `host`, laid out as the host
/// keeps it (getHostSize); a vector's elements are comma-separated.
static bool parseHostValue(StringRef text, Type type, unsigned argument,
                           std::vector<uint8_t> &host, std::string &error) {
  auto bad = [&] {
    error = ("argument #" + llvm::Twine(argument) + " is " + printType(type) +
             ", but '" + text + "' is not a value of that type")
                .str();
    return false;
  };
  if (auto vector = dyn_cast<VectorType>(type)) {
    SmallVector<StringRef> elements;
    text.split(elements, ',');
    if (vector.getRank() == 1 && !vector.isScalable() &&
        static_cast<int64_t>(elements.size()) != vector.getNumElements()) {
      error = ("argument #" + llvm::Twine(argument) + " is " + printType(type) +
               ", but '" + text + "' has " + llvm::Twine(elements.size()) +
               (elements.size() == 1 ? " element" : " elements") +
               " (write them comma-separated)")
                  .str();
      return false;
    }
    // An i1 vector's elements are bits (isBitVector).
    size_t start = host.size();
    std::vector<uint8_t> bits;
    for (StringRef element : elements) {
      if (parseHostValue(element.trim(), vector.getElementType(), argument,
                         isBitVector(vector) ? bits : host, error))
        continue;
      // Say it of the vector, with the reason (a range) if there is one.
      StringRef reason = StringRef(error).ends_with(")")
                             ? StringRef(error).substr(error.rfind(" ("))
                             : StringRef();
      error = ("argument #" + llvm::Twine(argument) + " is " + printType(type) +
               ", but its element '" + element.trim() + "' is not a value of " +
               printType(vector.getElementType()) + reason)
                  .str();
      return false;
    }
    if (isBitVector(vector)) {
      host.resize(start + getHostSize(vector), 0);
      for (auto [i, byte] : llvm::enumerate(bits))
        host[start + i / 8] |= (byte & 1) << (i % 8);
    }
    return true;
  }
  if (auto floatType = dyn_cast<FloatType>(type)) {
    // Parsed in the type's own format, rounded once.
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
    uint64_t bits = value.bitcastToAPInt().getZExtValue();
    const auto *bytes = reinterpret_cast<const uint8_t *>(&bits);
    host.insert(host.end(), bytes, bytes + getHostSize(type));
    return true;
  }
  if (!type.isIntOrIndex())
    return bad();
  int64_t value;
  if (type.isInteger(1) && (text == "true" || text == "false"))
    value = text == "true";
  else if (text.getAsInteger(0, value))
    return bad();
  // A narrower integer takes its signed or its unsigned range; nothing is
  // truncated silently.
  unsigned width = type.isIndex() ? 64 : type.getIntOrFloatBitWidth();
  if (width < 64 && (value < -(int64_t(1) << (width - 1)) ||
                     value >= (int64_t(1) << width))) {
    bad();
    error += " (out of range for " + std::to_string(width) + " bits)";
    return false;
  }
  const auto *bytes = reinterpret_cast<const uint8_t *>(&value);
  host.insert(host.end(), bytes, bytes + getHostSize(type));
  return true;
}

llvm::Expected<rt::KernelArg>
mlir::coro::runner::parseScalarArgument(StringRef text, Type type,
                                        unsigned argument, bool wideIndex) {
  rt::KernelArg arg;
  std::string error;
  std::vector<uint8_t> host;
  if (!parseHostValue(text, type, argument, host, error) ||
      !toKernelArgument(type, host, argument, wideIndex, arg, error))
    return llvm::createStringError(llvm::inconvertibleErrorCode(), error);
  return arg;
}

llvm::Expected<std::vector<uint8_t>>
mlir::coro::runner::parseHostArgument(StringRef text, Type type,
                                      unsigned argument) {
  std::string error;
  std::vector<uint8_t> host;
  if (!parseHostValue(text, type, argument, host, error))
    return llvm::createStringError(llvm::inconvertibleErrorCode(), error);
  return host;
}

llvm::Expected<rt::KernelArg> mlir::coro::runner::getKernelArgumentFromHost(
    Type type, const void *value, unsigned argument, bool wideIndex) {
  rt::KernelArg arg;
  std::string error;
  ArrayRef<uint8_t> host(static_cast<const uint8_t *>(value),
                         getHostSize(type));
  if (!toKernelArgument(type, host, argument, wideIndex, arg, error))
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
  if (size_t(llvm::count_if(userArgumentTypes, llvm::IsaPred<MemRefType>)) !=
      buffers.size())
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "the violation buffer needs one buffer per memref argument");
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

HostBuffer
mlir::coro::runner::createLaneProfileBuffer(LaneProfileAttr laneProfile) {
  return HostBuffer::getZeros(
      IntegerType::get(laneProfile.getContext(), 32),
      corogpu::runtime::lanes::getProfileBufferWords(
          laneProfile.getFunctions().size(), laneProfile.getSites().size()));
}
