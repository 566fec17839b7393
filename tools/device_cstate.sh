#!/usr/bin/env bash
# tools/device_small.sh with the host's CPU idle states held shallow: /dev/cpu_dma_latency
# written 0 and held open for the run (the kernel's PM QoS; released when the holder exits),
# to tell whether a sleeping wait's cost is the cores' wake-up from deep idle states. The
# cpuidle driver, governor and states go first into the output. Same variables as
# device_small.sh. Usage: OUT=$OUT [TUNES=...] bash tools/device_cstate.sh
d=/sys/devices/system/cpu/cpuidle
echo "# cpuidle: $(cat $d/current_driver 2>/dev/null) / $(cat $d/current_governor_ro $d/current_governor 2>/dev/null | head -1);" \
  "cpu0 states: $(cat /sys/devices/system/cpu/cpu0/cpuidle/state*/name 2>/dev/null | tr '\n' ' ')"
python3 - <<'PY'
import os, struct, subprocess
try:
    fd = os.open('/dev/cpu_dma_latency', os.O_WRONLY)
    os.write(fd, struct.pack('i', 0))
    print('# /dev/cpu_dma_latency held at 0')
except OSError as e:
    fd = None
    print('# /dev/cpu_dma_latency not held:', e)
subprocess.run(['bash', 'tools/device_small.sh'])
if fd is not None:
    os.close(fd)
PY
