# td.cl's PTX paths for NVIDIA's OpenCL (PSCR_OCL_PTX: warp shuffles from
# cc 70, cp.async from 80, the L2 prefetch from 90) compile nowhere in CI but
# on NVIDIA's platform. clang's nvptx64-nvidia-nvcl target compiles them here
# as OpenCL C 1.2 (with the kernels' default parameters) and this checks which
# instructions each compute capability gets. Skipped (PSCR_SKIP, ctest's
# SKIP_REGULAR_EXPRESSION) without clang or without that target.
# Usage: cmake -DCLANG=... -DKERNELS=<kernels dir> -DWORK=<dir> -P nvptx.cmake
if(NOT CLANG)
  message("PSCR_SKIP: no clang")
  return()
endif()
file(MAKE_DIRECTORY ${WORK})
# cc: expected counts (0: none, 1: some) of shfl.sync, cp.async.ca, prefetch.L2
set(cases "1:0:0:0" "89:1:1:0" "90:1:1:1")
foreach(z 0 1)
  foreach(c ${cases})
    string(REPLACE ":" ";" f ${c})
    list(GET f 0 cc)
    set(out ${WORK}/td_${cc}_${z}.ptx)
    execute_process(
      COMMAND ${CLANG} -x cl -cl-std=CL1.2 -target nvptx64-nvidia-nvcl -Xclang
              -finclude-default-header -O2 -S -DPSCR_OCL_PTX=${cc} -DPSCR_COMPLEX=${z}
              -I${KERNELS} -o ${out} ${KERNELS}/opencl/td.cl
      RESULT_VARIABLE rc ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
      if(err MATCHES "unknown target|No available targets|not supported")
        message("PSCR_SKIP: clang has no nvptx64-nvidia-nvcl target")
        return()
      endif()
      message(FATAL_ERROR "td.cl at PSCR_OCL_PTX=${cc} PSCR_COMPLEX=${z} did not compile:\n${err}")
    endif()
    file(READ ${out} ptx)
    set(i 1)
    foreach(ins "shfl.sync" "cp.async.ca.shared" "cp.async.bulk.prefetch.L2")
      list(GET f ${i} want)
      string(FIND "${ptx}" "${ins}" at)
      if(at GREATER -1)
        set(has 1)
      else()
        set(has 0)
      endif()
      if(NOT has EQUAL want)
        message(FATAL_ERROR "PSCR_OCL_PTX=${cc} PSCR_COMPLEX=${z}: ${ins} ${has}, wanted ${want}")
      endif()
      math(EXPR i "${i} + 1")
    endforeach()
    message("PSCR_OCL_PTX=${cc} PSCR_COMPLEX=${z}: compiled, shfl/cp.async/prefetch as wanted")
  endforeach()
endforeach()
