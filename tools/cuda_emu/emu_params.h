/* Tuning macros of the kernels: in the emulator each reads the -D value the
 * module was compiled with (EMU_PARAM(name, default) = the header default).
 * CUDA modules get no size macros (local arrays are dynamic), so these are
 * the kernels' defaults unless a developer passes them. */
#ifndef EMU_PARAMS_LIST
#define EMU_PARAMS_LIST
#define TD_TQ emu_param(0, 16)
#define TD_TW emu_param(1, 256)
#define TD_GQ emu_param(2, 32)
#define TD_GW emu_param(3, 64)
#define TD_GP emu_param(4, 16)
#define TD_TILE_LOCAL emu_param(5, 0)
#define TD_GS_LW emu_param(6, 64)
#define TD_GS_RW emu_param(7, 64)
#define TD_GS_DW emu_param(8, 8)
#define TD_REG_YSM emu_param(9, 0)
#define EMU_PARAM_NAMES                                                                            \
  {"TD_TQ",    "TD_TW",    "TD_GQ",    "TD_GW",     "TD_GP",                                       \
   "TD_TILE_LOCAL", "TD_GS_LW", "TD_GS_RW", "TD_GS_DW", "TD_REG_YSM"}
#define EMU_NPARAMS 10
#endif
