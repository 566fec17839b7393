# Installs libpscr into a scratch prefix, then builds and runs an outside
# program against it twice: through find_package(pscr) and through pkg-config.
set(prefix ${BINARY}/install-test/prefix)
set(build ${BINARY}/install-test/consumer)
file(REMOVE_RECURSE ${BINARY}/install-test)
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}")
  endif()
endfunction()
run(${CMAKE_COMMAND} --install ${BINARY} --prefix ${prefix})
run(${CMAKE_COMMAND} -S ${SOURCE}/tests/install/consumer -B ${build} -G ${GENERATOR}
    -DCMAKE_PREFIX_PATH=${prefix})
run(${CMAKE_COMMAND} --build ${build})
run(${build}/consumer)
# pkg-config: compile the same program with the flags the .pc file gives.
find_program(PKG_CONFIG pkg-config)
find_program(CC NAMES cc gcc clang)
if(PKG_CONFIG AND CC)
  set(ENV{PKG_CONFIG_PATH} ${prefix}/lib/pkgconfig:${prefix}/lib64/pkgconfig)
  execute_process(COMMAND ${PKG_CONFIG} --cflags --libs pscr OUTPUT_VARIABLE flags
                  RESULT_VARIABLE rc OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "pkg-config does not know pscr")
  endif()
  separate_arguments(flags UNIX_COMMAND "${flags}")
  run(${CC} -std=c11 ${SOURCE}/tests/install/consumer/consumer.c ${flags} -fopenmp
      -lm -Wl,-rpath,${prefix}/lib -o ${build}/consumer_pc)
  run(${build}/consumer_pc)
endif()
