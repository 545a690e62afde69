package core

// ModeGPRIdxEn is MODE.GPR_IDX_EN (GFX9 VGPR indexing, s_set_gpr_idx_on).
const ModeGPRIdxEn = 1 << 27
