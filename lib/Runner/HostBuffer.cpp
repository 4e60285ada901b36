//===- HostBuffer.cpp - host copies of a coroutine's buffers --------------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Runner/HostBuffer.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <cstring>

using namespace mlir;
using namespace mlir::coro::runner;

size_t mlir::coro::runner::getElementSize(Type type) {
  return type.isIndex() ? 4 : (type.getIntOrFloatBitWidth() + 7) / 8;
}

/// `value` rounded to the nearest IEEE half, and back.
static uint16_t toHalf(double value) {
  llvm::APFloat half(value);
  bool losesInfo;
  half.convert(llvm::APFloat::IEEEhalf(), llvm::APFloat::rmNearestTiesToEven,
               &losesInfo);
  return half.bitcastToAPInt().getZExtValue();
}
static double fromHalf(uint16_t bits) {
  llvm::APFloat half(llvm::APFloat::IEEEhalf(), llvm::APInt(16, bits));
  bool losesInfo;
  half.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
               &losesInfo);
  return half.convertToDouble();
}

HostBuffer HostBuffer::getZeros(Type elementType, size_t count) {
  HostBuffer buffer;
  buffer.elementType = elementType;
  buffer.count = count;
  buffer.elementSize = getElementSize(elementType);
  buffer.bytes.assign(count * buffer.elementSize, 0);
  return buffer;
}

int64_t HostBuffer::getInteger(size_t index) const {
  // Sign-extended from the element's width (little-endian).
  uint64_t bits = 0;
  std::memcpy(&bits, bytes.data() + index * elementSize,
              std::min<size_t>(elementSize, 8));
  return elementSize >= 8 ? int64_t(bits)
                          : llvm::SignExtend64(bits, 8 * elementSize);
}

double HostBuffer::getElement(size_t index) const {
  const uint8_t *at = bytes.data() + index * elementSize;
  if (elementType.isF16()) {
    uint16_t v;
    std::memcpy(&v, at, 2);
    return fromHalf(v);
  }
  if (elementType.isF32()) {
    float v;
    std::memcpy(&v, at, 4);
    return v;
  }
  if (elementType.isF64()) {
    double v;
    std::memcpy(&v, at, 8);
    return v;
  }
  return static_cast<double>(getInteger(index));
}

void HostBuffer::setElement(size_t index, double value) {
  uint8_t *at = bytes.data() + index * elementSize;
  if (elementType.isF16()) {
    uint16_t v = toHalf(value);
    std::memcpy(at, &v, 2);
  } else if (elementType.isF32()) {
    float v = value;
    std::memcpy(at, &v, 4);
  } else if (elementType.isF64()) {
    std::memcpy(at, &value, 8);
  } else if (elementType.isInteger(1)) {
    *at = value != 0;
  } else {
    int64_t v = static_cast<int64_t>(value);
    std::memcpy(at, &v, std::min<size_t>(elementSize, 8));
  }
}

void HostBuffer::print(unsigned index, llvm::raw_ostream &os) const {
  os << "buffer " << index << " (" << elementType << " x " << count << "): [";
  bool isFloat = isa<FloatType>(elementType);
  for (size_t i = 0; i < count; ++i) {
    os << (i ? ", " : "");
    // Integers exactly (an i64 does not fit %g's six digits).
    if (isFloat)
      os << llvm::format("%g", getElement(i));
    else
      os << getInteger(i);
  }
  os << "]\n";
}

size_t mlir::coro::runner::compareBuffers(
    ArrayRef<HostBuffer> actual, ArrayRef<HostBuffer> expected,
    double tolerance, SmallVectorImpl<BufferMismatch> &mismatches,
    unsigned maxReported) {
  size_t differing = 0;
  for (size_t index = 0, e = std::max(actual.size(), expected.size());
       index < e; ++index) {
    // A buffer one side lacks, or of another type or size, differs from
    // the first element on.
    if (index >= actual.size() || index >= expected.size() ||
        actual[index].elementType != expected[index].elementType ||
        actual[index].count != expected[index].count) {
      ++differing;
      mismatches.push_back({unsigned(index), 0, 0, 0});
      continue;
    }
    const HostBuffer &got = actual[index], &want = expected[index];
    unsigned reported = 0;
    for (size_t i = 0; i < got.count; ++i) {
      double a = got.getElement(i), b = want.getElement(i);
      // Non-finite values match only the same kind: an infinity of the
      // same sign, or a NaN (the same computation on both sides).
      bool equal;
      if (!isa<FloatType>(got.elementType))
        equal = got.getInteger(i) == want.getInteger(i);
      else if (!std::isfinite(a) || !std::isfinite(b))
        equal = a == b || (std::isnan(a) && std::isnan(b));
      else
        equal = std::fabs(a - b) <= tolerance * std::max(1.0, std::fabs(b));
      if (equal)
        continue;
      ++differing;
      if (reported++ < maxReported)
        mismatches.push_back({unsigned(index), i, a, b});
    }
  }
  return differing;
}
