//===- PlanAttrs.td - the plans schedulers hand to runtimes -*- tablegen -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_DIALECT_PLAN_IR_PLANATTRS_TD
#define COROGPU_DIALECT_PLAN_IR_PLANATTRS_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/OpBase.td"
include "mlir/IR/DialectBase.td"

def CoroPlan_Dialect : Dialect {
  let name = "coro_plan";
  let cppNamespace = "::mlir::coro::plan";
  let summary = "The plans that scheduler passes hand to the runtime";
  let description = [{
    A scheduler pass turns each coroutine into kernels and leaves a *plan*:
    what the host side (the CoroGPU runtime's launch loops, `coro-run`)
    must know to run them. The plans are the typed contract between the
    compiler and the runtime: the numeric parameters are the fields of the
    same names of the runtime's structs (`InstanceKernelPlan` for the
    mega-kernel and the state machine, `WavefrontPlan`, `PersistentPlan` in
    `corogpu/runtime/`), `subroutines` names the subroutines for reports,
    and every plan carries its workgroup size. A module holds one dictionary per scheduler, keyed by coroutine:

    ```mlir
    module attributes {coro.wavefront = {render = #coro_plan.wavefront<
        workgroupSize = 64, tokens = 3, categories = 3, frameWords = 9,
        layout = "aosoa", subroutines = ["entry", "hit", "shade"]>}} { ... }
    ```

    `lookupPlan<WavefrontPlanAttr>(module, "render")` reads one back, with
    a located error where there is none; the verifiers reject plans no
    runtime could run (a workgroup of 0 threads, tokens that do not match
    the subroutines, ...). The dialect has no ops and knows nothing of
    coroutines.
  }];
  let useDefaultAttributePrinterParser = 1;
}

// Enums of the runtime's contract, spelled as the string of their name
// (`layout = "aosoa"`, `design = "classify"`).
def CoroPlan_FrameArrayLayoutParameter
    : AttrParameter<"::corogpu::runtime::FrameArrayLayout", "frame layout"> {
  let parser = "::mlir::coro::plan::parseFrameArrayLayout($_parser)";
  let printer = "$_printer << '\"' << "
                "::corogpu::runtime::getFrameArrayLayoutName($_self) << '\"'";
}
def CoroPlan_WavefrontDesignParameter
    : AttrParameter<"::corogpu::runtime::wavefront::Design", "queue design"> {
  let parser = "::mlir::coro::plan::parseWavefrontDesign($_parser)";
  let printer = "$_printer << '\"' << "
                "::corogpu::runtime::wavefront::getDesignName($_self) << '\"'";
  let defaultValue = "::corogpu::runtime::wavefront::Design::Queues";
}

// What kernels were compiled for, spelled as the runtime spells it
// (`target = "spirv"`, `target = "sm_90"`).
def CoroPlan_KernelTargetParameter
    : AttrParameter<"::corogpu::runtime::KernelTarget", "kernel target"> {
  let parser = "::mlir::coro::plan::parseKernelTarget($_parser)";
  let printer = "$_printer << '\"' << $_self.str() << '\"'";
}

class CoroPlan_Attr<string name, string attrMnemonic>
    : AttrDef<CoroPlan_Dialect, name> {
  let mnemonic = attrMnemonic;
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def CoroPlan_MegakernelPlan : CoroPlan_Attr<"MegakernelPlan", "megakernel"> {
  let summary = "How to launch a mega-kernel (coro-megakernel-to-gpu)";
  let description = [{
    One kernel named after the coroutine runs every instance to its end:
    `ceil(nx / workgroupSize) x ny x nz` workgroups of `workgroupSize`
    threads. Module attribute `coro.megakernel`.
  }];
  let parameters = (ins "uint32_t":$workgroupSize);
  let extraClassDeclaration = [{
    static constexpr ::llvm::StringLiteral kModuleAttrName = "coro.megakernel";
  }];
}

def CoroPlan_StateMachinePlan
    : CoroPlan_Attr<"StateMachinePlan", "state_machine"> {
  let summary = "How to launch a state-machine kernel "
                "(coro-state-machine-to-gpu)";
  let description = [{
    One kernel named after the coroutine dispatches on each instance's
    target token until it returns (`stepsPerLaunch` = 0), or runs at most
    `stepsPerLaunch` subroutines per launch with `frameWords` words of
    each frame in a global buffer between launches, the host relaunching
    until every instance returned. `subroutines` names them (their tags) in
    token order. Module attribute `coro.state_machine`.
  }];
  let parameters = (ins "uint32_t":$workgroupSize, "uint32_t":$frameWords,
                        "uint32_t":$stepsPerLaunch,
                        "::mlir::ArrayAttr":$subroutines);
  let extraClassDeclaration = [{
    static constexpr ::llvm::StringLiteral kModuleAttrName =
        "coro.state_machine";
  }];
}

def CoroPlan_WavefrontPlan : CoroPlan_Attr<"WavefrontPlan", "wavefront"> {
  let summary = "How to run the wavefront kernels (coro-wavefront-to-gpu)";
  let description = [{
    The host loop of `corogpu/runtime/Wavefront.h`: `tokens` subroutine
    kernels (named in token order by `subroutines`), `categories` queues
    (subroutines x hint buckets), `frameWords` words per slot in `layout`
    ("aosoa", "soa" or "aos": `corogpu/runtime/FrameArrayABI.h`), and how the rounds build the queues: `design`
    "queues" (the default, printed only otherwise) or "classify". With
    `gridStride`, the subroutine kernels stride over their queues and are
    launched with a grid sized for the device, not indirectly. With
    `tailBelow` (queue design; printed only when not 0) there is a tail
    kernel, and rounds that start once the grid is exhausted with fewer than
    `tailBelow` % of the slots alive run it instead of the subroutine
    kernels. Module attribute `coro.wavefront`.
  }];
  let parameters = (ins "uint32_t":$workgroupSize, "uint32_t":$tokens,
                        "uint32_t":$categories, "uint32_t":$frameWords,
                        CoroPlan_FrameArrayLayoutParameter:$layout,
                        "::mlir::ArrayAttr":$subroutines,
                        CoroPlan_WavefrontDesignParameter:$design,
                        DefaultValuedParameter<"bool", "false">:$gridStride,
                        DefaultValuedParameter<"uint32_t", "0">:$tailBelow);
  let extraClassDeclaration = [{
    static constexpr ::llvm::StringLiteral kModuleAttrName = "coro.wavefront";
  }];
}

def CoroPlan_PersistentPlan : CoroPlan_Attr<"PersistentPlan", "persistent"> {
  let summary = "How to run the persistent kernel (coro-persistent-to-gpu)";
  let description = [{
    The host loop of `corogpu/runtime/Persistent.h`: one kernel whose
    workgroups each keep `batch` instance slots, `sharedSlots` of them with
    their frame (`frameWords` words) in `workgroupBytes` of workgroup
    memory and the others in the global extension, both laid out as
    `layout` says ("soa", "aos" or "aosoa"); `tokens` subroutines,
    named in token order by `subroutines`. With `stepsPerLaunch` (bounded
    steps; printed only when not 0), a workgroup parks its slots after that
    many steps and the runtime launches the kernel again. Module attribute
    `coro.persistent`.
  }];
  let parameters = (ins "uint32_t":$workgroupSize, "uint32_t":$tokens,
                        "uint32_t":$frameWords, "uint32_t":$batch,
                        "uint32_t":$sharedSlots, "uint64_t":$workgroupBytes,
                        CoroPlan_FrameArrayLayoutParameter:$layout,
                        "::mlir::ArrayAttr":$subroutines,
                        DefaultValuedParameter<"uint32_t", "0">:$stepsPerLaunch);
  let extraClassDeclaration = [{
    static constexpr ::llvm::StringLiteral kModuleAttrName = "coro.persistent";
  }];
}

def CoroPlan_HostCoroutine
    : CoroPlan_Attr<"HostCoroutine", "host_coroutine"> {
  let summary = "A coroutine that a host program launches, compiled "
                "(coro-host-launches-to-gpu)";
  let description = [{
    What the runtime wrappers of host programs (`libcoro_runtime_wrappers`)
    need to run a `coro.launch` that became a `gpu.launch_func`: the
    coroutine's `name` and `functionType` (how to read the launch's
    arguments), the `target` its kernels were compiled for ("spirv" or an
    NVIDIA chip, "sm_90") and the `plan` of its scheduler (one of the four
    plans above). It heads the object of the `gpu.binary` that holds the
    kernels (`CoroGPU/Runner/HostKernels.h`).

    ```mlir
    #coro_plan.host_coroutine<name = "shade", functionType = (i32, memref<?xf32>) -> (),
        target = "spirv", plan = #coro_plan.megakernel<workgroupSize = 64>>
    ```
  }];
  let parameters = (ins StringRefParameter<"coroutine">:$name,
                        "::mlir::FunctionType":$functionType,
                        CoroPlan_KernelTargetParameter:$target,
                        "::mlir::Attribute":$plan);
}

def CoroPlan_HostKernel : CoroPlan_Attr<"HostKernel", "host_kernel"> {
  let summary = "A kernel (gpu.func) that a host program launches, compiled "
                "(coro-host-launches-to-gpu)";
  let description = [{
    One kernel of a `gpu.module` that coro-host-launches-to-gpu compiled
    for a host program: its `name`, `functionType`, `target` and the
    `workgroupSize` its code was compiled for (SPIR-V fixes it in the
    kernel; a launch with other block sizes is an error).

    ```mlir
    #coro_plan.host_kernel<name = "blur", functionType = (memref<?xf32>) -> (),
        target = "spirv", workgroupSize = [32, 1, 1]>
    ```
  }];
  let parameters = (ins StringRefParameter<"kernel">:$name,
                        "::mlir::FunctionType":$functionType,
                        CoroPlan_KernelTargetParameter:$target,
                        "::mlir::DenseI32ArrayAttr":$workgroupSize);
}

#endif // COROGPU_DIALECT_PLAN_IR_PLANATTRS_TD
