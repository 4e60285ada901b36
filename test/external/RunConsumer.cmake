# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Installs CoroGPU into PREFIX, checks the install tree (no empty directory)
# and runs its coro-opt and coro-run on PROGRAM, then configures/builds the
# consumer project against it and runs the consumer. A failing step prints
# its output and fails the test.
function(run_step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status
    OUTPUT_VARIABLE output ERROR_VARIABLE output)
  if(NOT status EQUAL 0)
    string(REPLACE ";" " " command "${ARGN}")
    message(FATAL_ERROR "external-consumer: `${command}` failed (${status}):\n${output}")
  endif()
  set(step_output "${output}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE ${PREFIX} ${CONSUMER_BUILD})
run_step(${CMAKE_COMMAND} --install ${CORO_BUILD_DIR} --prefix ${PREFIX})
message(STATUS "installed CoroGPU into ${PREFIX}")

# The install tree holds no empty directory.
file(GLOB_RECURSE entries LIST_DIRECTORIES true "${PREFIX}/*")
foreach(entry ${entries})
  if(IS_DIRECTORY ${entry})
    file(GLOB contents "${entry}/*")
    if(NOT contents)
      message(FATAL_ERROR "external-consumer: empty directory ${entry} in the install tree")
    endif()
  endif()
endforeach()

# The installed tools start (their RUNPATH finds libMLIR.so) and work: a
# pipeline through coro-opt, a coroutine listing through coro-run.
run_step(${PREFIX}/bin/coro-opt ${PROGRAM} --coro-to-spirv=scheduler=wavefront
  -o ${PREFIX}/../installed-coro-opt.mlir)
run_step(${PREFIX}/bin/coro-run ${PROGRAM} --list)
message(STATUS "installed coro-run --list:\n${step_output}")
# The installed runtime wrappers load into mlir-runner (their RUNPATH finds
# libMLIR.so) and run a host program's main, which needs no device.
run_step(${PREFIX}/bin/coro-opt ${HOST_PROGRAM} --coro-host-to-llvm
  -o ${PREFIX}/../host-smoke.ll.mlir)
run_step(${MLIR_RUNNER} ${PREFIX}/../host-smoke.ll.mlir -e main
  --entry-point-result=void
  --shared-libs=${PREFIX}/lib/libcoro_runtime_wrappers.so)
if(NOT step_output MATCHES "host program ran")
  message(FATAL_ERROR "external-consumer: the host program printed:\n${step_output}")
endif()
message(STATUS "installed libcoro_runtime_wrappers.so: ${step_output}")
# The installed Python package imports (its native module's RUNPATH finds
# libMLIR.so) and runs a coroutine under two schedulers, checked.
if(PYTHON)
  run_step(${CMAKE_COMMAND} -E env PYTHONPATH=${PREFIX}/python_packages
    ${PYTHON} ${PYTHON_SMOKE} ${PREFIX}/python_packages/corogpu)
  message(STATUS "installed corogpu package: ${step_output}")
endif()
run_step(${CMAKE_COMMAND} -S ${CONSUMER_SOURCE} -B ${CONSUMER_BUILD}
  -G ${GENERATOR}
  -DCMAKE_PREFIX_PATH=${PREFIX}
  -DMLIR_DIR=${MLIR_DIR}
  -DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER})
run_step(${CMAKE_COMMAND} --build ${CONSUMER_BUILD})
message(STATUS "built the consumer against find_package(CoroGPU)")
run_step(${CONSUMER_BUILD}/coro-consumer)
message(STATUS "coro-consumer output:\n${step_output}")
