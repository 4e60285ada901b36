# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# cmake -DOUTPUT=<file> "-DTD_FILES=<Passes.td;...>" -P GeneratePassAnchors.cmake
#
# Writes the reference page that says which op each CoroGPU pass runs on
# (its anchor in Passes.td) and how to nest it in a pipeline, which the
# generated pass pages do not say.
set(text "<!-- Generated from the Passes.td files by cmake/GeneratePassAnchors.cmake; don't edit -->

# Where each pass runs

A pass runs on the ops its anchor names; in a pipeline it is nested under
them (`coro-opt -p '<pipeline>'`, `mlir-opt` with the plugins, or
`PassManager::nest` from C++). The named pipelines `coro-to-spirv` and
`coro-to-ptx` (lib/Pipelines) and `coro-host-to-llvm` (lib/HostPrograms,
docs/host-programs.md) run on `builtin.module`; `coro-opt --help` lists
their options. An embedder registers all of them, with every dialect and
translation they need, with `mlir::coro::registerCoroGPU`
(`CoroGPU/InitAllCoroGPU.h`).

| pass | runs on | in a pipeline |
| --- | --- | --- |
")
set(rows)
foreach(td ${TD_FILES})
  file(READ ${td} content)
  string(REGEX MATCHALL "Pass<\"[a-z0-9-]+\", *\"[^\"]+\">" passes "${content}")
  foreach(pass ${passes})
    string(REGEX REPLACE "Pass<\"([a-z0-9-]+)\", *\"([^\"]+)\">" "\\1" name "${pass}")
    string(REGEX REPLACE "Pass<\"([a-z0-9-]+)\", *\"([^\"]+)\">" "\\2" anchor "${pass}")
    if(anchor STREQUAL "::mlir::ModuleOp")
      set(row "| `${name}` | `builtin.module` | `builtin.module(${name})` |")
    elseif(anchor STREQUAL "::mlir::coro::FuncOp")
      set(row "| `${name}` | `coro.func` | `builtin.module(coro.func(${name}))` |")
    elseif(anchor STREQUAL "::mlir::gpu::GPUModuleOp")
      set(row "| `${name}` | `gpu.module` | `builtin.module(gpu.module(${name}))` |")
    elseif(anchor STREQUAL "::mlir::spirv::ModuleOp")
      set(row "| `${name}` | `spirv.module` | `builtin.module(spirv.module(${name}))` |")
    else()
      message(FATAL_ERROR "GeneratePassAnchors: pass ${name} anchors on ${anchor}, which this page does not know; add it")
    endif()
    list(APPEND rows "${row}")
  endforeach()
endforeach()
list(SORT rows)
list(JOIN rows "\n" table)
file(WRITE ${OUTPUT} "${text}${table}\n")
