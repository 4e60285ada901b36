// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
/* coro-vk-run-compute: runs one SPIR-V compute shader on a Vulkan device, with
 * no CoroGPU code in between. It exists to tell a driver's bug from ours: a
 * shader written in GLSL and compiled by glslangValidator, run through this
 * host, shows what the driver does with SPIR-V that CoroGPU never touched.
 * See README.md next to this file. Test-only: built into the build's bin
 * directory for lit, never installed. One file over 700 lines on purpose:
 * a reproducer that a driver's developers can build alone (cc FILE
 * -lvulkan), with none of CoroGPU's runtime.
 *
 *   coro-vk-run-compute SHADER.spv [--entry=NAME] [--spec=ID=VALUE]...
 *       (--groups=X[,Y[,Z]] | --invocations=X[,Y[,Z]])
 *       [--device=SUBSTRING] --buffer=TYPE:COUNT:INIT...
 *
 * Each --buffer is a storage buffer at descriptor set 0, binding = its
 * position among the --buffer options (0, 1, ...). After one dispatch every
 * buffer is printed on stdout, as coro-run prints them:
 *   buffer 0 (i32 x 4): [0, 1, 2, 3]
 * The device's name goes to stderr. Exit status: 0 ran, 1 Vulkan error,
 * 2 bad command line or bad shader file. */
#include <vulkan/vulkan.h>

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *usageText =
    "usage: coro-vk-run-compute SHADER.spv [options] "
    "--buffer=TYPE:COUNT:INIT...\n"
    "  --entry=NAME             entry point (default: main)\n"
    "  --groups=X[,Y[,Z]]       number of workgroups to dispatch\n"
    "  --invocations=X[,Y[,Z]]  dispatch ceil(X / local size X) (and so on)\n"
    "                           workgroups; the local size is read from the\n"
    "                           module (LocalSize, LocalSizeId or a "
    "WorkgroupSize\n"
    "                           built-in), after --spec. The shader must "
    "itself\n"
    "                           skip invocations past the wanted count.\n"
    "  --spec=ID=VALUE          set the 32-bit specialization constant with\n"
    "                           SpecId ID (e.g. GLSL local_size_x_id = ID)\n"
    "  --device=SUBSTRING       the first device whose name contains "
    "SUBSTRING\n"
    "                           (default: the first device)\n"
    "  --buffer=TYPE:COUNT:INIT a storage buffer of COUNT elements at binding\n"
    "                           0, 1, ... in order. TYPE: i32 u32 i64 u64 f32 "
    "f64.\n"
    "                           INIT: zeros | iota | const=V | values=V,V,...\n"
    "                           (exactly COUNT values) | file=PATH (raw\n"
    "                           little-endian elements, exactly COUNT of "
    "them)\n";

static void die(int status, const char *format, ...) {
  va_list args;
  va_start(args, format);
  fputs("coro-vk-run-compute: ", stderr);
  vfprintf(stderr, format, args);
  fputc('\n', stderr);
  va_end(args);
  exit(status);
}

static const char *resultName(VkResult r) {
  switch (r) {
  case VK_ERROR_OUT_OF_HOST_MEMORY:
    return "VK_ERROR_OUT_OF_HOST_MEMORY";
  case VK_ERROR_OUT_OF_DEVICE_MEMORY:
    return "VK_ERROR_OUT_OF_DEVICE_MEMORY";
  case VK_ERROR_INITIALIZATION_FAILED:
    return "VK_ERROR_INITIALIZATION_FAILED";
  case VK_ERROR_DEVICE_LOST:
    return "VK_ERROR_DEVICE_LOST";
  case VK_ERROR_INCOMPATIBLE_DRIVER:
    return "VK_ERROR_INCOMPATIBLE_DRIVER";
  case VK_ERROR_FEATURE_NOT_PRESENT:
    return "VK_ERROR_FEATURE_NOT_PRESENT";
  case VK_ERROR_EXTENSION_NOT_PRESENT:
    return "VK_ERROR_EXTENSION_NOT_PRESENT";
  case VK_ERROR_UNKNOWN:
    return "VK_ERROR_UNKNOWN";
  case VK_ERROR_INVALID_SHADER_NV:
    return "VK_ERROR_INVALID_SHADER_NV";
  default:
    return "VkResult";
  }
}

#define CHECK(call)                                                            \
  do {                                                                         \
    VkResult r_ = (call);                                                      \
    if (r_ != VK_SUCCESS)                                                      \
      die(1, "%s failed: %s (%d)", #call, resultName(r_), (int)r_);            \
  } while (0)

static void *xcalloc(size_t count, size_t size) {
  void *p = calloc(count ? count : 1, size ? size : 1);
  if (!p)
    die(1, "out of memory");
  return p;
}

/* Reads a whole file; *size gets its length. */
static unsigned char *readFile(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f)
    die(2, "cannot open '%s': %s", path, strerror(errno));
  size_t capacity = 4096, n = 0;
  unsigned char *data = xcalloc(capacity, 1);
  size_t got;
  while ((got = fread(data + n, 1, capacity - n, f)) > 0) {
    n += got;
    if (n == capacity) {
      capacity *= 2;
      data = realloc(data, capacity);
      if (!data)
        die(1, "out of memory");
    }
  }
  if (ferror(f))
    die(2, "cannot read '%s': %s", path, strerror(errno));
  fclose(f);
  *size = n;
  return data;
}

/* "X[,Y[,Z]]" of positive integers; missing ones are 1. */
static void parseTriple(const char *option, const char *text, uint32_t out[3]) {
  out[0] = out[1] = out[2] = 1;
  const char *p = text;
  for (int i = 0; i < 3; i++) {
    char *end;
    errno = 0;
    unsigned long long v = strtoull(p, &end, 10);
    if (end == p || *p == '-' || errno || v == 0 || v > UINT32_MAX)
      die(2, "%s: '%s' is not X[,Y[,Z]] of positive 32-bit integers", option,
          text);
    out[i] = (uint32_t)v;
    if (*end == '\0')
      return;
    if (*end != ',' || i == 2)
      die(2, "%s: '%s' is not X[,Y[,Z]] of positive 32-bit integers", option,
          text);
    p = end + 1;
  }
}

/* ---------------------------------------------------------------- buffers */

enum ElementType { I32, U32, I64, U64, F32, F64 };
static const char *typeNames[] = {"i32", "u32", "i64", "u64", "f32", "f64"};
static const size_t typeSizes[] = {4, 4, 8, 8, 4, 8};

typedef struct {
  enum ElementType type;
  size_t count;
  unsigned char *bytes;
} HostBuffer;

/* Parses one element of `type` from the start of `text` into `at`; returns
 * the end of the number, or NULL. */
static const char *parseElement(enum ElementType type, const char *text,
                                unsigned char *at) {
  char *end;
  errno = 0;
  switch (type) {
  case I32: {
    long long v = strtoll(text, &end, 0);
    if (v < INT32_MIN || v > INT32_MAX)
      return NULL;
    int32_t x = (int32_t)v;
    memcpy(at, &x, 4);
    break;
  }
  case U32: {
    unsigned long long v = strtoull(text, &end, 0);
    if (*text == '-' || v > UINT32_MAX)
      return NULL;
    uint32_t x = (uint32_t)v;
    memcpy(at, &x, 4);
    break;
  }
  case I64: {
    int64_t x = strtoll(text, &end, 0);
    memcpy(at, &x, 8);
    break;
  }
  case U64: {
    if (*text == '-')
      return NULL;
    uint64_t x = strtoull(text, &end, 0);
    memcpy(at, &x, 8);
    break;
  }
  case F32: {
    float x = strtof(text, &end);
    memcpy(at, &x, 4);
    break;
  }
  case F64: {
    double x = strtod(text, &end);
    memcpy(at, &x, 8);
    break;
  }
  }
  if (end == text || errno)
    return NULL;
  return end;
}

static void setIota(enum ElementType type, size_t i, unsigned char *at) {
  switch (type) {
  case I32:
  case U32: {
    uint32_t x = (uint32_t)i;
    memcpy(at, &x, 4);
    break;
  }
  case I64:
  case U64: {
    uint64_t x = (uint64_t)i;
    memcpy(at, &x, 8);
    break;
  }
  case F32: {
    float x = (float)i;
    memcpy(at, &x, 4);
    break;
  }
  case F64: {
    double x = (double)i;
    memcpy(at, &x, 8);
    break;
  }
  }
}

static HostBuffer parseBuffer(const char *spec) {
  HostBuffer b;
  const char *colon1 = strchr(spec, ':');
  const char *colon2 = colon1 ? strchr(colon1 + 1, ':') : NULL;
  if (!colon2)
    die(2, "--buffer=%s: not TYPE:COUNT:INIT", spec);
  size_t typeLength = (size_t)(colon1 - spec);
  int found = 0;
  for (int t = 0; t < 6; t++)
    if (strlen(typeNames[t]) == typeLength &&
        !strncmp(spec, typeNames[t], typeLength)) {
      b.type = (enum ElementType)t;
      found = 1;
    }
  if (!found)
    die(2, "--buffer=%s: unknown element type '%.*s' (i32 u32 i64 u64 f32 f64)",
        spec, (int)typeLength, spec);
  char *end;
  errno = 0;
  unsigned long long count = strtoull(colon1 + 1, &end, 10);
  if (end != colon2 || colon1[1] == '-' || errno || count == 0 ||
      count > (1ull << 28))
    die(2, "--buffer=%s: bad element count '%.*s' (1 to 2^28)", spec,
        (int)(colon2 - colon1 - 1), colon1 + 1);
  b.count = (size_t)count;
  size_t elementSize = typeSizes[b.type];
  b.bytes = xcalloc(b.count, elementSize);
  const char *init = colon2 + 1;
  if (!strcmp(init, "zeros"))
    return b;
  if (!strcmp(init, "iota")) {
    for (size_t i = 0; i < b.count; i++)
      setIota(b.type, i, b.bytes + i * elementSize);
    return b;
  }
  if (!strncmp(init, "const=", 6)) {
    const char *e = parseElement(b.type, init + 6, b.bytes);
    if (!e || *e)
      die(2, "--buffer=%s: bad %s constant '%s'", spec, typeNames[b.type],
          init + 6);
    for (size_t i = 1; i < b.count; i++)
      memcpy(b.bytes + i * elementSize, b.bytes, elementSize);
    return b;
  }
  if (!strncmp(init, "values=", 7)) {
    const char *p = init + 7;
    size_t n = 0;
    for (;;) {
      while (*p == ' ')
        p++;
      if (n == b.count)
        die(2, "--buffer=%s: more than %zu values", spec, b.count);
      const char *e = parseElement(b.type, p, b.bytes + n * elementSize);
      if (!e)
        die(2, "--buffer=%s: value %zu ('%.20s') is not a valid %s", spec, n, p,
            typeNames[b.type]);
      n++;
      p = e;
      while (*p == ' ')
        p++;
      if (*p == '\0')
        break;
      if (*p != ',')
        die(2, "--buffer=%s: expected ',' after value %zu, got '%.20s'", spec,
            n - 1, p);
      p++;
    }
    if (n != b.count)
      die(2, "--buffer=%s: %zu values, expected %zu", spec, n, b.count);
    return b;
  }
  if (!strncmp(init, "file=", 5)) {
    size_t size;
    unsigned char *data = readFile(init + 5, &size);
    if (size != b.count * elementSize)
      die(2, "--buffer=%s: '%s' has %zu bytes, expected %zu (%zu x %s)", spec,
          init + 5, size, b.count * elementSize, b.count, typeNames[b.type]);
    memcpy(b.bytes, data, size);
    free(data);
    return b;
  }
  die(2,
      "--buffer=%s: unknown initializer '%s' (zeros, iota, const=V, "
      "values=V,V,..., file=PATH)",
      spec, init);
  return b;
}

static void printBuffer(unsigned index, const HostBuffer *b, const void *data) {
  const unsigned char *at = data;
  printf("buffer %u (%s x %zu): [", index, typeNames[b->type], b->count);
  for (size_t i = 0; i < b->count; i++, at += typeSizes[b->type]) {
    if (i)
      printf(", ");
    switch (b->type) {
    case I32: {
      int32_t x;
      memcpy(&x, at, 4);
      printf("%" PRId32, x);
      break;
    }
    case U32: {
      uint32_t x;
      memcpy(&x, at, 4);
      printf("%" PRIu32, x);
      break;
    }
    case I64: {
      int64_t x;
      memcpy(&x, at, 8);
      printf("%" PRId64, x);
      break;
    }
    case U64: {
      uint64_t x;
      memcpy(&x, at, 8);
      printf("%" PRIu64, x);
      break;
    }
    case F32: {
      float x;
      memcpy(&x, at, 4);
      printf("%g", (double)x);
      break;
    }
    case F64: {
      double x;
      memcpy(&x, at, 8);
      printf("%g", x);
      break;
    }
    }
  }
  printf("]\n");
}

/* ------------------------------------------------------ SPIR-V inspection */

typedef struct {
  uint32_t id, specId, value;
  int isSpec, hasSpecId;
} ScalarConstant;

typedef struct {
  uint32_t count;
  ScalarConstant *scalars; /* indexed by result id */
  uint32_t bound;
  uint32_t entryFunction;
  int foundEntry;
  uint32_t localSize[3];
  int hasLocalSize;
  uint32_t localSizeIds[3];
  int hasLocalSizeId;
  uint32_t workgroupSizeId; /* the id decorated BuiltIn WorkgroupSize */
  uint32_t composites[3];   /* constituents of that composite, if any */
  int hasWorkgroupSize;
} ModuleInfo;

enum {
  OpEntryPoint = 15,
  OpExecutionMode = 16,
  OpConstant = 43,
  OpConstantComposite = 44,
  OpSpecConstant = 50,
  OpSpecConstantComposite = 51,
  OpDecorate = 71,
  OpExecutionModeId = 331,
  ModeLocalSize = 17,
  ModeLocalSizeId = 38,
  DecorationSpecId = 1,
  DecorationBuiltIn = 11,
  BuiltInWorkgroupSize = 25,
  ExecutionModelGLCompute = 5,
};

/* Reads what --invocations and the entry check need from `words`. */
static ModuleInfo inspectModule(const char *path, const uint32_t *words,
                                size_t count, const char *entry) {
  ModuleInfo m;
  memset(&m, 0, sizeof m);
  if (count < 5 || words[0] != 0x07230203u)
    die(2,
        "'%s' is not a SPIR-V module (no magic number; a big-endian or "
        "text module is not supported: assemble it with spirv-as)",
        path);
  m.bound = words[3];
  if (m.bound == 0 || m.bound > (1u << 22))
    die(2, "'%s': implausible id bound %u", path, m.bound);
  m.scalars = xcalloc(m.bound, sizeof *m.scalars);
  for (size_t i = 5; i < count;) {
    uint32_t opcode = words[i] & 0xffffu, length = words[i] >> 16;
    if (length == 0 || i + length > count)
      die(2, "'%s': malformed instruction at word %zu", path, i);
    const uint32_t *op = words + i;
    switch (opcode) {
    case OpEntryPoint:
      if (length >= 4 && op[1] == ExecutionModelGLCompute) {
        size_t maxChars = (length - 3) * 4;
        const char *name = (const char *)(op + 3);
        if (memchr(name, '\0', maxChars) && !strcmp(name, entry)) {
          m.entryFunction = op[2];
          m.foundEntry = 1;
        }
      }
      break;
    case OpConstant:
    case OpSpecConstant:
      if (length >= 4 && op[2] < m.bound) {
        ScalarConstant *c = &m.scalars[op[2]];
        c->id = op[2];
        c->value = op[3]; /* the low word: local sizes are 32-bit */
        c->isSpec = opcode == OpSpecConstant;
      }
      break;
    case OpDecorate:
      if (length >= 4 && op[1] < m.bound && op[2] == DecorationSpecId) {
        m.scalars[op[1]].specId = op[3];
        m.scalars[op[1]].hasSpecId = 1;
      }
      if (length >= 4 && op[2] == DecorationBuiltIn &&
          op[3] == BuiltInWorkgroupSize) {
        m.workgroupSizeId = op[1];
        m.hasWorkgroupSize = 1;
      }
      break;
    default:
      break;
    }
    i += length;
  }
  /* The modes of the entry point, and the WorkgroupSize composite. */
  for (size_t i = 5; i < count; i += words[i] >> 16) {
    uint32_t opcode = words[i] & 0xffffu, length = words[i] >> 16;
    const uint32_t *op = words + i;
    if ((opcode == OpExecutionMode || opcode == OpExecutionModeId) &&
        length >= 6 && m.foundEntry && op[1] == m.entryFunction) {
      if (opcode == OpExecutionMode && op[2] == ModeLocalSize) {
        memcpy(m.localSize, op + 3, sizeof m.localSize);
        m.hasLocalSize = 1;
      }
      if (opcode == OpExecutionModeId && op[2] == ModeLocalSizeId) {
        memcpy(m.localSizeIds, op + 3, sizeof m.localSizeIds);
        m.hasLocalSizeId = 1;
      }
    }
    if ((opcode == OpConstantComposite || opcode == OpSpecConstantComposite) &&
        length == 6 && m.hasWorkgroupSize && op[2] == m.workgroupSizeId)
      memcpy(m.composites, op + 3, sizeof m.composites);
  }
  return m;
}

typedef struct {
  uint32_t id, value;
} SpecValue;

/* The value of constant `id` after the --spec overrides. */
static uint32_t constantValue(const ModuleInfo *m, uint32_t id,
                              const SpecValue *specs, size_t specCount) {
  if (id == 0 || id >= m->bound || m->scalars[id].id != id)
    die(2, "the local size names %%%u, which is not a 32-bit scalar constant",
        id);
  const ScalarConstant *c = &m->scalars[id];
  if (c->isSpec && c->hasSpecId)
    for (size_t s = 0; s < specCount; s++)
      if (specs[s].id == c->specId)
        return specs[s].value;
  return c->value;
}

static void localSizeOf(const ModuleInfo *m, const SpecValue *specs,
                        size_t specCount, uint32_t out[3]) {
  if (m->hasWorkgroupSize && m->composites[0]) {
    for (int i = 0; i < 3; i++)
      out[i] = constantValue(m, m->composites[i], specs, specCount);
  } else if (m->hasLocalSizeId) {
    for (int i = 0; i < 3; i++)
      out[i] = constantValue(m, m->localSizeIds[i], specs, specCount);
  } else if (m->hasLocalSize) {
    memcpy(out, m->localSize, 3 * sizeof *out);
  } else {
    die(2, "--invocations: the module gives the entry point no local size");
  }
  for (int i = 0; i < 3; i++)
    if (out[i] == 0)
      die(2, "--invocations: the module's local size has a zero dimension");
}

/* ------------------------------------------------------------------- main */

int main(int argc, char **argv) {
  const char *shaderPath = NULL, *entry = "main", *deviceWanted = NULL;
  const char *groupsText = NULL, *invocationsText = NULL;
  HostBuffer *buffers = xcalloc((size_t)argc, sizeof *buffers);
  SpecValue *specs = xcalloc((size_t)argc, sizeof *specs);
  size_t bufferCount = 0, specCount = 0;

  if (argc < 2) {
    fputs(usageText, stderr);
    return 2;
  }
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      fputs(usageText, stdout);
      return 0;
    } else if (!strncmp(a, "--entry=", 8)) {
      entry = a + 8;
    } else if (!strncmp(a, "--groups=", 9)) {
      groupsText = a + 9;
    } else if (!strncmp(a, "--invocations=", 14)) {
      invocationsText = a + 14;
    } else if (!strncmp(a, "--device=", 9)) {
      deviceWanted = a + 9;
    } else if (!strncmp(a, "--buffer=", 9)) {
      buffers[bufferCount++] = parseBuffer(a + 9);
    } else if (!strncmp(a, "--spec=", 7)) {
      char *end;
      errno = 0;
      unsigned long id = strtoul(a + 7, &end, 10);
      if (end == a + 7 || *end != '=' || errno || id > UINT32_MAX)
        die(2, "%s: not --spec=ID=VALUE", a);
      const char *valueText = end + 1;
      errno = 0;
      long long value = strtoll(valueText, &end, 0);
      if (end == valueText || *end || errno || value < INT32_MIN ||
          value > (long long)UINT32_MAX)
        die(2, "%s: VALUE is not a 32-bit integer", a);
      specs[specCount].id = (uint32_t)id;
      specs[specCount].value = (uint32_t)value;
      specCount++;
    } else if (a[0] == '-' && a[1] != '\0') {
      die(2, "unknown option '%s' (try --help)", a);
    } else if (!shaderPath) {
      shaderPath = a;
    } else {
      die(2, "more than one shader file: '%s' and '%s'", shaderPath, a);
    }
  }
  if (!shaderPath)
    die(2, "no shader file given (try --help)");
  if (!groupsText == !invocationsText)
    die(2, "give exactly one of --groups and --invocations");
  if (bufferCount == 0)
    die(2, "no --buffer given");

  size_t codeSize;
  unsigned char *code = readFile(shaderPath, &codeSize);
  if (codeSize % 4)
    die(2, "'%s' has %zu bytes, not a whole number of 32-bit words", shaderPath,
        codeSize);
  uint32_t *words = xcalloc(codeSize / 4, 4);
  memcpy(words, code, codeSize);
  ModuleInfo module = inspectModule(shaderPath, words, codeSize / 4, entry);
  if (!module.foundEntry)
    die(2, "'%s' has no GLCompute entry point named '%s' (--entry)", shaderPath,
        entry);
  uint32_t groups[3];
  if (groupsText) {
    parseTriple("--groups", groupsText, groups);
  } else {
    uint32_t invocations[3], local[3];
    parseTriple("--invocations", invocationsText, invocations);
    localSizeOf(&module, specs, specCount, local);
    for (int i = 0; i < 3; i++)
      groups[i] = invocations[i] / local[i] + (invocations[i] % local[i] != 0);
  }

  /* Instance and device. */
  VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "coro-vk-run-compute";
  app.apiVersion = VK_API_VERSION_1_2;
  VkInstanceCreateInfo instanceInfo = {
      .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  instanceInfo.pApplicationInfo = &app;
  VkInstance instance;
  CHECK(vkCreateInstance(&instanceInfo, NULL, &instance));
  uint32_t deviceCount = 0;
  CHECK(vkEnumeratePhysicalDevices(instance, &deviceCount, NULL));
  if (deviceCount == 0)
    die(1, "no Vulkan device");
  VkPhysicalDevice *devices = xcalloc(deviceCount, sizeof *devices);
  CHECK(vkEnumeratePhysicalDevices(instance, &deviceCount, devices));
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  VkPhysicalDeviceProperties properties;
  for (uint32_t i = 0; i < deviceCount; i++) {
    vkGetPhysicalDeviceProperties(devices[i], &properties);
    if (!deviceWanted || strstr(properties.deviceName, deviceWanted)) {
      physical = devices[i];
      break;
    }
  }
  if (!physical)
    die(1, "no Vulkan device's name contains '%s'", deviceWanted);
  fprintf(stderr, "device: %s\n", properties.deviceName);
  for (int i = 0; i < 3; i++)
    if (groups[i] > properties.limits.maxComputeWorkGroupCount[i])
      die(2, "%u workgroups in dimension %d, the device allows %u", groups[i],
          i, properties.limits.maxComputeWorkGroupCount[i]);

  uint32_t familyCount = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(physical, &familyCount, NULL);
  VkQueueFamilyProperties *families = xcalloc(familyCount, sizeof *families);
  vkGetPhysicalDeviceQueueFamilyProperties(physical, &familyCount, families);
  uint32_t family = UINT32_MAX;
  for (uint32_t i = 0; i < familyCount && family == UINT32_MAX; i++)
    if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT)
      family = i;
  if (family == UINT32_MAX)
    die(1, "the device has no compute queue");
  float priority = 1.0f;
  VkDeviceQueueCreateInfo queueInfo = {
      .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queueInfo.queueFamilyIndex = family;
  queueInfo.queueCount = 1;
  queueInfo.pQueuePriorities = &priority;
  /* Enable what the shaders here may use and the device has. */
  VkPhysicalDeviceFeatures supported;
  vkGetPhysicalDeviceFeatures(physical, &supported);
  VkPhysicalDeviceFeatures enabled;
  memset(&enabled, 0, sizeof enabled);
  enabled.shaderInt64 = supported.shaderInt64;
  enabled.shaderFloat64 = supported.shaderFloat64;
  enabled.shaderInt16 = supported.shaderInt16;
  VkDeviceCreateInfo deviceInfo = {.sType =
                                       VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  deviceInfo.queueCreateInfoCount = 1;
  deviceInfo.pQueueCreateInfos = &queueInfo;
  deviceInfo.pEnabledFeatures = &enabled;
  VkDevice device;
  CHECK(vkCreateDevice(physical, &deviceInfo, NULL, &device));
  VkQueue queue;
  vkGetDeviceQueue(device, family, 0, &queue);

  /* Buffers: host-visible, coherent, mapped for the whole run. */
  VkPhysicalDeviceMemoryProperties memory;
  vkGetPhysicalDeviceMemoryProperties(physical, &memory);
  VkBuffer *vkBuffers = xcalloc(bufferCount, sizeof *vkBuffers);
  void **mapped = xcalloc(bufferCount, sizeof *mapped);
  for (size_t b = 0; b < bufferCount; b++) {
    VkBufferCreateInfo bufferInfo = {.sType =
                                         VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bufferInfo.size = buffers[b].count * typeSizes[buffers[b].type];
    bufferInfo.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    CHECK(vkCreateBuffer(device, &bufferInfo, NULL, &vkBuffers[b]));
    VkMemoryRequirements requirements;
    vkGetBufferMemoryRequirements(device, vkBuffers[b], &requirements);
    VkMemoryPropertyFlags want = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                 VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    uint32_t type = UINT32_MAX;
    for (uint32_t t = 0; t < memory.memoryTypeCount && type == UINT32_MAX; t++)
      if (((requirements.memoryTypeBits >> t) & 1) &&
          (memory.memoryTypes[t].propertyFlags & want) == want)
        type = t;
    if (type == UINT32_MAX)
      die(1, "no host-visible coherent memory for buffer %zu", b);
    VkMemoryAllocateInfo allocateInfo = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    allocateInfo.allocationSize = requirements.size;
    allocateInfo.memoryTypeIndex = type;
    VkDeviceMemory deviceMemory;
    CHECK(vkAllocateMemory(device, &allocateInfo, NULL, &deviceMemory));
    CHECK(vkBindBufferMemory(device, vkBuffers[b], deviceMemory, 0));
    CHECK(vkMapMemory(device, deviceMemory, 0, VK_WHOLE_SIZE, 0, &mapped[b]));
    memcpy(mapped[b], buffers[b].bytes, bufferInfo.size);
  }

  /* Pipeline: one descriptor set of storage buffers. */
  VkDescriptorSetLayoutBinding *bindings =
      xcalloc(bufferCount, sizeof *bindings);
  for (size_t b = 0; b < bufferCount; b++) {
    bindings[b].binding = (uint32_t)b;
    bindings[b].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    bindings[b].descriptorCount = 1;
    bindings[b].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
  }
  VkDescriptorSetLayoutCreateInfo setLayoutInfo = {
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  setLayoutInfo.bindingCount = (uint32_t)bufferCount;
  setLayoutInfo.pBindings = bindings;
  VkDescriptorSetLayout setLayout;
  CHECK(vkCreateDescriptorSetLayout(device, &setLayoutInfo, NULL, &setLayout));
  VkPipelineLayoutCreateInfo layoutInfo = {
      .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  layoutInfo.setLayoutCount = 1;
  layoutInfo.pSetLayouts = &setLayout;
  VkPipelineLayout layout;
  CHECK(vkCreatePipelineLayout(device, &layoutInfo, NULL, &layout));
  VkShaderModuleCreateInfo moduleInfo = {
      .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  moduleInfo.codeSize = codeSize;
  moduleInfo.pCode = words;
  VkShaderModule shader;
  CHECK(vkCreateShaderModule(device, &moduleInfo, NULL, &shader));
  VkSpecializationMapEntry *entries = xcalloc(specCount, sizeof *entries);
  uint32_t *specData = xcalloc(specCount, sizeof *specData);
  for (size_t s = 0; s < specCount; s++) {
    entries[s].constantID = specs[s].id;
    entries[s].offset = (uint32_t)(s * 4);
    entries[s].size = 4;
    specData[s] = specs[s].value;
  }
  VkSpecializationInfo specInfo = {(uint32_t)specCount, entries, specCount * 4,
                                   specData};
  VkComputePipelineCreateInfo pipelineInfo = {
      .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  pipelineInfo.stage.sType =
      VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  pipelineInfo.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  pipelineInfo.stage.module = shader;
  pipelineInfo.stage.pName = entry;
  pipelineInfo.stage.pSpecializationInfo = specCount ? &specInfo : NULL;
  pipelineInfo.layout = layout;
  VkPipeline pipeline;
  CHECK(vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &pipelineInfo, NULL,
                                 &pipeline));

  VkDescriptorPoolSize poolSize = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                   (uint32_t)bufferCount};
  VkDescriptorPoolCreateInfo poolInfo = {
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  poolInfo.maxSets = 1;
  poolInfo.poolSizeCount = 1;
  poolInfo.pPoolSizes = &poolSize;
  VkDescriptorPool pool;
  CHECK(vkCreateDescriptorPool(device, &poolInfo, NULL, &pool));
  VkDescriptorSetAllocateInfo setInfo = {
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  setInfo.descriptorPool = pool;
  setInfo.descriptorSetCount = 1;
  setInfo.pSetLayouts = &setLayout;
  VkDescriptorSet set;
  CHECK(vkAllocateDescriptorSets(device, &setInfo, &set));
  VkDescriptorBufferInfo *bufferInfos =
      xcalloc(bufferCount, sizeof *bufferInfos);
  VkWriteDescriptorSet *writes = xcalloc(bufferCount, sizeof *writes);
  for (size_t b = 0; b < bufferCount; b++) {
    bufferInfos[b].buffer = vkBuffers[b];
    bufferInfos[b].range = VK_WHOLE_SIZE;
    writes[b].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
    writes[b].dstSet = set;
    writes[b].dstBinding = (uint32_t)b;
    writes[b].descriptorCount = 1;
    writes[b].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    writes[b].pBufferInfo = &bufferInfos[b];
  }
  vkUpdateDescriptorSets(device, (uint32_t)bufferCount, writes, 0, NULL);

  /* One dispatch, then make the writes visible to the host. */
  VkCommandPoolCreateInfo commandPoolInfo = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  commandPoolInfo.queueFamilyIndex = family;
  VkCommandPool commandPool;
  CHECK(vkCreateCommandPool(device, &commandPoolInfo, NULL, &commandPool));
  VkCommandBufferAllocateInfo commandInfo = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  commandInfo.commandPool = commandPool;
  commandInfo.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  commandInfo.commandBufferCount = 1;
  VkCommandBuffer commands;
  CHECK(vkAllocateCommandBuffers(device, &commandInfo, &commands));
  VkCommandBufferBeginInfo beginInfo = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  beginInfo.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  CHECK(vkBeginCommandBuffer(commands, &beginInfo));
  vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
  vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0,
                          1, &set, 0, NULL);
  vkCmdDispatch(commands, groups[0], groups[1], groups[2]);
  VkMemoryBarrier barrier = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                       VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &barrier, 0, NULL, 0,
                       NULL);
  CHECK(vkEndCommandBuffer(commands));
  VkSubmitInfo submit = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &commands;
  CHECK(vkQueueSubmit(queue, 1, &submit, VK_NULL_HANDLE));
  CHECK(vkQueueWaitIdle(queue));

  for (size_t b = 0; b < bufferCount; b++)
    printBuffer((unsigned)b, &buffers[b], mapped[b]);
  /* The process exit releases the Vulkan objects. */
  return fflush(stdout) ? 1 : 0;
}
