# Installs CoroGPU into PREFIX, configures/builds the consumer project against
# it and runs the consumer. Any failing step fails the test.
function(run_step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    string(REPLACE ";" " " command "${ARGN}")
    message(FATAL_ERROR "external-consumer: `${command}` failed (${status})")
  endif()
endfunction()

file(REMOVE_RECURSE ${PREFIX} ${CONSUMER_BUILD})
run_step(${CMAKE_COMMAND} --install ${CORO_BUILD_DIR} --prefix ${PREFIX})
run_step(${CMAKE_COMMAND} -S ${CONSUMER_SOURCE} -B ${CONSUMER_BUILD}
  -G ${GENERATOR}
  -DCMAKE_PREFIX_PATH=${PREFIX}
  -DMLIR_DIR=${MLIR_DIR}
  -DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER})
run_step(${CMAKE_COMMAND} --build ${CONSUMER_BUILD})
run_step(${CONSUMER_BUILD}/coro-consumer)
