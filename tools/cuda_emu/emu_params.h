/* Tuning macros of the kernels: in the emulator each reads the -D value the
 * module was compiled with (EMU_PARAM(name, default) = the header default). */
#ifndef EMU_PARAMS_LIST
#define EMU_PARAMS_LIST
#define TD_WG emu_param(0, 256)
#define TD_SMEM_N emu_param(1, 2048)
#define TD_D_MAX emu_param(2, 64)
#define TD_TQ emu_param(3, 8)
#define TD_TW emu_param(4, 256)
#define TD_RW emu_param(5, 256)
#define TD_GQ emu_param(6, 32)
#define TD_GW emu_param(7, 64)
#define TD_GP emu_param(8, 16)
#define TD_TILE_LOCAL emu_param(9, 0)
#define EMU_PARAM_NAMES {"TD_WG", "TD_SMEM_N", "TD_D_MAX", "TD_TQ", "TD_TW", "TD_RW", "TD_GQ", "TD_GW", "TD_GP", "TD_TILE_LOCAL"}
#define EMU_NPARAMS 10
#endif
