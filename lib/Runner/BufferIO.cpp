//===- BufferIO.cpp - buffers from specs and files, to files --------------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Runner/BufferIO.h"
#include "CoroGPU/Runner/HostKernels.h"

#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/CRC.h"
#include "llvm/Support/Compression.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"

#include <cmath>
#include <random>
#include <unistd.h>

using namespace mlir;
using namespace mlir::coro::runner;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

StringRef mlir::coro::runner::getNumpyType(Type type) {
  if (type.isInteger(1))
    return "|b1";
  if (type.isInteger(8))
    return "|i1";
  if (type.isInteger(16))
    return "<i2";
  if (type.isF16())
    return "<f2";
  if (type.isF32())
    return "<f4";
  if (type.isF64())
    return "<f8";
  return type.isInteger(32) ? "<i4" : "<i8";
}

/// The elements of the NPY file `contents` (format 1.0 to 3.0, as NumPy's
/// np.save writes it) as raw little-endian bytes, checked against the
/// buffer: its dtype must be `type`'s, its element count `count`; a
/// multi-dimensional array is read in C order. An error names `path`.
static bool readNumpyElements(StringRef contents, StringRef path, Type type,
                              size_t count, StringRef &elements,
                              std::string &error) {
  auto failWith = [&](const llvm::Twine &why) {
    error = ("'" + path + "' is not a usable .npy file: " + why).str();
    return false;
  };
  if (!contents.consume_front("\x93NUMPY"))
    return failWith("no NPY magic string");
  if (contents.size() < 4)
    return failWith("truncated header");
  unsigned major = static_cast<uint8_t>(contents[0]);
  contents = contents.drop_front(2);
  size_t headerLength;
  if (major == 1) {
    headerLength = uint8_t(contents[0]) | uint8_t(contents[1]) << 8;
    contents = contents.drop_front(2);
  } else if (major == 2 || major == 3) {
    if (contents.size() < 4)
      return failWith("truncated header");
    headerLength = 0;
    for (int i = 3; i >= 0; --i)
      headerLength = headerLength << 8 | uint8_t(contents[i]);
    contents = contents.drop_front(4);
  } else {
    return failWith("format version " + llvm::Twine(major) + ", not 1, 2 or 3");
  }
  if (contents.size() < headerLength)
    return failWith("truncated header");
  StringRef header = contents.take_front(headerLength);
  elements = contents.drop_front(headerLength);
  // The value after `'key':` in the header's dict.
  auto value = [&](StringRef key) -> StringRef {
    size_t at = header.find(("'" + key + "'").str());
    if (at == StringRef::npos)
      return {};
    StringRef rest = header.drop_front(at + key.size() + 2).ltrim();
    return rest.consume_front(":") ? rest.ltrim() : StringRef();
  };
  StringRef descr = value("descr");
  if (!descr.consume_front("'") || descr.find('\'') == StringRef::npos)
    return failWith("no 'descr' in its header");
  descr = descr.take_until([](char c) { return c == '\''; });
  // `=` is the native byte order, little-endian here as on every GPU host.
  std::string dtype = descr.str();
  if (!dtype.empty() && dtype[0] == '=')
    dtype[0] = '<';
  if (dtype != getNumpyType(type)) {
    std::string typeName;
    llvm::raw_string_ostream os(typeName);
    os << type;
    error =
        ("'" + path + "' holds elements of dtype " + descr +
         ", but the buffer is " + typeName + " (" + getNumpyType(type) + ")")
            .str();
    return false;
  }
  StringRef shapeText = value("shape");
  if (!shapeText.consume_front("("))
    return failWith("no 'shape' in its header");
  shapeText = shapeText.take_until([](char c) { return c == ')'; });
  SmallVector<StringRef> extents;
  shapeText.split(extents, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  uint64_t elementCount = 1;
  unsigned rank = 0, longExtents = 0;
  for (StringRef extent : extents) {
    extent = extent.trim();
    if (extent.empty())
      continue;
    uint64_t size;
    if (extent.getAsInteger(10, size))
      return failWith("bad shape (" + shapeText + ")");
    bool overflowed = false;
    elementCount = llvm::SaturatingMultiply(elementCount, size, &overflowed);
    if (overflowed)
      return failWith("bad shape (" + shapeText + ")");
    ++rank;
    longExtents += size > 1;
  }
  // Fortran order differs from C order only with two extents above 1.
  if (longExtents > 1 && value("fortran_order").starts_with("True"))
    return failWith("a " + llvm::Twine(rank) +
                    "-dimensional array in Fortran order (save it in C "
                    "order: np.ascontiguousarray)");
  if (elementCount != count) {
    error = ("'" + path + "' holds " + llvm::Twine(elementCount) +
             " elements (shape (" + shapeText + ")), but the buffer has " +
             llvm::Twine(count))
                .str();
    return false;
  }
  if (elements.size() != count * getElementSize(type))
    return failWith("its data has " + llvm::Twine(elements.size()) +
                    " bytes, its header says " +
                    llvm::Twine(count * getElementSize(type)));
  return true;
}

/// The element type a buffer spec names, or null.
static Type parseElementType(StringRef name, MLIRContext &context) {
  return llvm::StringSwitch<Type>(name)
      .Case("i1", IntegerType::get(&context, 1))
      .Case("i8", IntegerType::get(&context, 8))
      .Case("i16", IntegerType::get(&context, 16))
      .Case("i32", IntegerType::get(&context, 32))
      .Case("i64", IntegerType::get(&context, 64))
      .Case("f16", Float16Type::get(&context))
      .Case("f32", Float32Type::get(&context))
      .Case("f64", Float64Type::get(&context))
      .Default(Type());
}
static constexpr const char kElementTypeNames[] =
    "i1, i8, i16, i32, i64, f16, f32, f64";

std::string
mlir::coro::runner::checkBufferArgument(MemRefType memref,
                                        const KernelTarget &target) {
  // The elements only: the shapes GPU kernels take are the compiler's to
  // check.
  if (std::string why = checkHostMemRef(
          MemRefType::get({ShapedType::kDynamic}, memref.getElementType()),
          target);
      !why.empty())
    return why;
  std::string name;
  llvm::raw_string_ostream os(name);
  os << memref.getElementType();
  if (parseElementType(name, *memref.getContext()))
    return {};
  return "buffer specs name elements of " + std::string(kElementTypeNames) +
         ", not " + name + " (keep bf16 values as i16: arith.bitcast)";
}

/// Parses TYPE:COUNT:INIT into `buffer`, checking it against `memref`.
static bool parseBuffer(StringRef spec, MemRefType memref, unsigned argument,
                        HostBuffer &buffer, std::string &error) {
  MLIRContext &context = *memref.getContext();
  SmallVector<StringRef, 3> parts;
  spec.split(parts, ':', /*MaxSplit=*/2);
  if (parts.size() != 3) {
    error = ("buffer '" + spec + "' is not TYPE:COUNT:INIT").str();
    return false;
  }
  Type type = parseElementType(parts[0], context);
  if (!type) {
    error = ("buffer '" + spec + "': unknown element type '" + parts[0] +
             "' (" + kElementTypeNames + ")")
                .str();
    return false;
  }
  if (type != memref.getElementType()) {
    std::string expected;
    llvm::raw_string_ostream os(expected);
    os << memref.getElementType();
    error = ("buffer '" + spec + "' has elements of type " + parts[0] +
             ", but argument #" + llvm::Twine(argument) + " is a memref of " +
             expected)
                .str();
    return false;
  }
  if (parts[1].getAsInteger(10, buffer.count)) {
    error =
        ("buffer '" + spec + "': bad element count '" + parts[1] + "'").str();
    return false;
  }
  if (memref.hasStaticShape() &&
      buffer.count < static_cast<size_t>(memref.getNumElements())) {
    error = ("buffer '" + spec + "' has " + llvm::Twine(buffer.count) +
             " elements, but argument #" + llvm::Twine(argument) +
             " has a static shape of " + llvm::Twine(memref.getNumElements()))
                .str();
    return false;
  }
  // Say so before trying to allocate what cannot fit.
  uint64_t bytes = uint64_t(buffer.count) * getElementSize(type);
  uint64_t hostBytes =
      uint64_t(sysconf(_SC_PHYS_PAGES)) * sysconf(_SC_PAGESIZE);
  if (buffer.count > (uint64_t(1) << 62) / 8 || bytes > hostBytes) {
    error =
        ("out of memory: buffer '" + spec + "' needs " + llvm::Twine(bytes) +
         " bytes, this machine has " + llvm::Twine(hostBytes))
            .str();
    return false;
  }
  buffer = HostBuffer::getZeros(type, buffer.count);

  auto setElement = [&](size_t index, double value) {
    buffer.setElement(index, value);
  };
  StringRef init = parts[2];
  if (init == "zeros")
    return true;
  if (init == "iota") {
    for (size_t i = 0; i < buffer.count; ++i)
      setElement(i, static_cast<double>(i));
    return true;
  }
  if (init.consume_front("const=")) {
    double value;
    if (init.getAsDouble(value)) {
      error = ("buffer '" + spec + "': bad constant '" + init + "'").str();
      return false;
    }
    for (size_t i = 0; i < buffer.count; ++i)
      setElement(i, value);
    return true;
  }
  if (init.consume_front("random=")) {
    uint64_t seed;
    if (init.getAsInteger(10, seed)) {
      error = ("buffer '" + spec + "': bad seed '" + init + "'").str();
      return false;
    }
    std::mt19937_64 generator(seed);
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    // [0, 1000), or the positive values of a narrower integer.
    double integerRange =
        isa<IntegerType>(type)
            ? std::min(1000.0,
                       std::ldexp(
                           1.0, std::max(1u, type.getIntOrFloatBitWidth() - 1)))
            : 0;
    for (size_t i = 0; i < buffer.count; ++i)
      setElement(i, isa<FloatType>(type)
                        ? uniform(generator)
                        : std::floor(uniform(generator) * integerRange));
    return true;
  }
  if (init.consume_front("file=")) {
    auto file = llvm::MemoryBuffer::getFile(init);
    if (!file) {
      error = ("buffer '" + spec + "': cannot read '" + init +
               "': " + file.getError().message())
                  .str();
      return false;
    }
    if ((*file)->getBufferSize() != buffer.bytes.size()) {
      error = ("buffer '" + spec + "': '" + init + "' has " +
               llvm::Twine((*file)->getBufferSize()) + " bytes, expected " +
               llvm::Twine(buffer.bytes.size()))
                  .str();
      return false;
    }
    std::memcpy(buffer.bytes.data(), (*file)->getBufferStart(),
                buffer.bytes.size());
    return true;
  }
  if (init.consume_front("npy=")) {
    llvm::Expected<HostBuffer> read = readNumpyFile(init, type, buffer.count);
    if (!read) {
      error =
          ("buffer '" + spec + "': " + llvm::toString(read.takeError())).str();
      return false;
    }
    buffer = std::move(*read);
    return true;
  }
  error = ("buffer '" + spec + "': unknown initializer '" + init +
           "' (zeros, iota, const=V, random=SEED, file=PATH, npy=PATH)")
              .str();
  return false;
}

llvm::Expected<HostBuffer>
mlir::coro::runner::parseBufferSpec(StringRef spec, MemRefType memref,
                                    unsigned argument) {
  HostBuffer buffer;
  std::string error;
  if (!parseBuffer(spec, memref, argument, buffer, error))
    return makeError(error);
  return buffer;
}

llvm::Expected<HostBuffer> mlir::coro::runner::readNumpyFile(StringRef path,
                                                             Type elementType,
                                                             size_t count) {
  auto file = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                          /*RequiresNullTerminator=*/false);
  if (!file)
    return makeError("cannot read '" + path +
                     "': " + file.getError().message());
  StringRef elements;
  std::string error;
  if (!readNumpyElements((*file)->getBuffer(), path, elementType, count,
                         elements, error))
    return makeError(error);
  HostBuffer buffer = HostBuffer::getZeros(elementType, count);
  std::memcpy(buffer.bytes.data(), elements.data(), buffer.bytes.size());
  return buffer;
}

SmallVector<uint64_t>
mlir::coro::runner::getGridShape(std::array<uint32_t, 3> grid, size_t count) {
  uint64_t instances = uint64_t(grid[0]) * grid[1] * grid[2];
  if (instances == 0 || count % instances != 0)
    return {count};
  // C order, the slowest extent first; extents of 1 after the first left
  // out (a 64x1 grid is 64 elements, not 1x64).
  SmallVector<uint64_t> shape;
  for (int i = 2; i >= 0; --i)
    if (grid[i] > 1 || (i == 0 && shape.empty()))
      shape.push_back(grid[i]);
  if (count != instances)
    shape.push_back(count / instances);
  return shape;
}

void mlir::coro::runner::writeNumpy(const HostBuffer &buffer,
                                    llvm::raw_ostream &os,
                                    ArrayRef<uint64_t> shape) {
  uint64_t elements = 1;
  for (uint64_t extent : shape)
    elements *= extent;
  std::string dims;
  if (shape.empty() || elements != buffer.count)
    dims = std::to_string(buffer.count) + ",";
  else
    for (uint64_t extent : shape)
      dims += (dims.empty() ? "" : " ") + std::to_string(extent) + ",";
  // NPY 1.0: magic, version, header length, a dict padded to 64 bytes.
  std::string header = ("{'descr': '" + getNumpyType(buffer.elementType) +
                        "', 'fortran_order': False, 'shape': (" + dims + "), }")
                           .str();
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header.push_back('\n');
  uint16_t length = header.size();
  os << "\x93NUMPY" << char(1) << char(0) << char(length & 0xff)
     << char(length >> 8) << header
     << StringRef(reinterpret_cast<const char *>(buffer.bytes.data()),
                  buffer.bytes.size());
}

llvm::Error mlir::coro::runner::writeBufferFiles(StringRef dir, unsigned index,
                                                 const HostBuffer &buffer,
                                                 ArrayRef<uint64_t> shape) {
  std::string base = (dir + "/buffer" + llvm::Twine(index)).str();
  std::string error;
  auto raw = openOutputFile(base + ".bin", &error);
  auto npy = raw ? openOutputFile(base + ".npy", &error) : nullptr;
  if (!raw || !npy)
    return makeError(error);
  raw->os() << StringRef(reinterpret_cast<const char *>(buffer.bytes.data()),
                         buffer.bytes.size());
  writeNumpy(buffer, npy->os(), shape);
  raw->keep();
  npy->keep();
  return llvm::Error::success();
}

/// Parses the PNG spec `text` against `buffers`; an error starts with the
/// spec in quotes.
static bool parsePng(StringRef text, ArrayRef<HostBuffer> buffers,
                     PngImage &image, std::string &error) {
  SmallVector<StringRef, 4> parts;
  text.split(parts, ':', /*MaxSplit=*/3);
  StringRef width, height;
  if (parts.size() == 4)
    std::tie(width, height) = parts[1].split('x');
  if (parts.size() != 4 || parts[0].getAsInteger(10, image.buffer) ||
      width.getAsInteger(10, image.width) ||
      height.getAsInteger(10, image.height) ||
      parts[2].getAsInteger(10, image.channels) || parts[3].empty()) {
    error = ("'" + text + "': expected I:WIDTHxHEIGHT:CHANNELS:PATH").str();
    return false;
  }
  image.path = parts[3].str();
  if (image.buffer >= buffers.size()) {
    error = ("'" + text + "': there is no buffer " + llvm::Twine(image.buffer) +
             " (the run has " + llvm::Twine(buffers.size()) + " buffer(s))")
                .str();
    return false;
  }
  if (image.width == 0 || image.height == 0 || image.width > (1u << 16) ||
      image.height > (1u << 16) ||
      (image.channels != 1 && image.channels != 3)) {
    error = ("'" + text +
             "': the size must be 1 to 65536 pixels a side and CHANNELS 1 "
             "or 3")
                .str();
    return false;
  }
  const HostBuffer &buffer = buffers[image.buffer];
  uint64_t values = uint64_t(image.width) * image.height * image.channels;
  if (values != buffer.count) {
    error = ("'" + text + "': " + llvm::Twine(image.width) + "x" +
             llvm::Twine(image.height) + " pixels of " +
             llvm::Twine(image.channels) + " channel(s) are " +
             llvm::Twine(values) + " values, buffer " +
             llvm::Twine(image.buffer) + " has " + llvm::Twine(buffer.count) +
             " (the image is the whole buffer)")
                .str();
    return false;
  }
  return true;
}

llvm::Expected<PngImage>
mlir::coro::runner::parsePngSpec(StringRef spec, ArrayRef<HostBuffer> buffers) {
  PngImage image;
  std::string error;
  if (!parsePng(spec, buffers, image, error))
    return makeError(error);
  return image;
}

llvm::Error mlir::coro::runner::writePng(const PngImage &image,
                                         const HostBuffer &buffer,
                                         double exposure) {
  if (uint64_t(image.width) * image.height * image.channels != buffer.count ||
      (image.channels != 1 && image.channels != 3))
    return makeError(
        "'" + image.path + "': the image (" + llvm::Twine(image.width) + "x" +
        llvm::Twine(image.height) + ", " + llvm::Twine(image.channels) +
        " channel(s)) does not fit its buffer (parsePngSpec "
        "checks it)");
  if (!llvm::compression::zlib::isAvailable())
    return makeError("writing a PNG needs zlib, which this LLVM was built "
                     "without");

  // Integers (ids, counts) scale linearly from the smallest value to the
  // largest, to black to white, without exposure or gamma.
  bool integers = !isa<FloatType>(buffer.elementType);
  int64_t low = 0, high = 0;
  if (integers && buffer.count) {
    low = high = buffer.getInteger(0);
    for (size_t i = 1; i < buffer.count; ++i) {
      low = std::min(low, buffer.getInteger(i));
      high = std::max(high, buffer.getInteger(i));
    }
  }
  auto toByte = [&](size_t index) -> uint8_t {
    if (integers) {
      if (high == low)
        return 0;
      double scaled = (double(buffer.getInteger(index)) - double(low)) /
                      (double(high) - double(low));
      return static_cast<uint8_t>(std::lround(255.0 * scaled));
    }
    double v = buffer.getElement(index) * exposure;
    if (!(v > 0.0)) // Also NaN.
      return 0;
    if (v >= 1.0)
      return 255;
    return static_cast<uint8_t>(std::lround(255.0 * std::pow(v, 1 / 2.2)));
  };
  // Scanlines of filter type 0 (none), then RGB triples.
  std::vector<uint8_t> rows;
  rows.reserve(size_t(image.height) * (1 + 3 * size_t(image.width)));
  for (size_t y = 0; y < image.height; ++y) {
    rows.push_back(0);
    for (size_t x = 0; x < image.width; ++x) {
      size_t pixel = (y * image.width + x) * image.channels;
      for (unsigned c = 0; c < 3; ++c)
        rows.push_back(toByte(pixel + (image.channels == 3 ? c : 0)));
    }
  }
  SmallVector<uint8_t> compressed;
  llvm::compression::zlib::compress(
      rows, compressed, llvm::compression::zlib::BestSizeCompression);
  std::string error;
  auto output = openOutputFile(image.path, &error);
  if (!output)
    return makeError(error);
  auto bigEndian = [](uint32_t word) {
    return std::array<uint8_t, 4>{uint8_t(word >> 24), uint8_t(word >> 16),
                                  uint8_t(word >> 8), uint8_t(word)};
  };
  auto chunk = [&](StringRef type, ArrayRef<uint8_t> data) {
    std::vector<uint8_t> typed(type.begin(), type.end());
    typed.insert(typed.end(), data.begin(), data.end());
    auto length = bigEndian(data.size());
    auto crc = bigEndian(llvm::crc32(typed));
    output->os().write(reinterpret_cast<const char *>(length.data()), 4);
    output->os().write(reinterpret_cast<const char *>(typed.data()),
                       typed.size());
    output->os().write(reinterpret_cast<const char *>(crc.data()), 4);
  };
  output->os() << "\x89PNG\r\n\x1a\n";
  std::vector<uint8_t> header;
  for (uint32_t word : {uint32_t(image.width), uint32_t(image.height)}) {
    auto bytes = bigEndian(word);
    header.insert(header.end(), bytes.begin(), bytes.end());
  }
  // 8 bits, RGB, deflate, no filter choice, no interlace.
  header.insert(header.end(), {8, 2, 0, 0, 0});
  chunk("IHDR", header);
  chunk("IDAT", compressed);
  chunk("IEND", {});
  output->keep();
  return llvm::Error::success();
}
