// SPDX-License-Identifier: BSD-2-Clause
/*
 * STACK frames (spec/FORMAT.md 9.4): (module_id, addr) varint pairs. The decoder is the
 * reader's guard: frames from a file are walked within their bytes, every pair checked.
 */
#include "sct.h"
#include "varint.h"

int sct_stack_frame_next(const struct sct_bytes *frames, size_t *pos, struct sct_frame *f)
{
	const uint8_t *p, *end;
	uint64_t module_id, addr;

	if (*pos >= frames->len)
		return *pos == frames->len ? 0 : -SCT_E_CORRUPT;
	p = frames->ptr + *pos;
	end = frames->ptr + frames->len;
	if (varint_get(&p, end, &module_id) || varint_get(&p, end, &addr) || module_id > UINT32_MAX)
		return -SCT_E_CORRUPT;
	f->module_id = (uint32_t)module_id;
	f->addr = addr;
	*pos = (size_t)(p - frames->ptr);
	return 1;
}

int sct_stack_frames_encode(const struct sct_frame *f, size_t n, uint8_t *buf, size_t cap)
{
	uint8_t tmp[2 * VARINT_MAX];
	size_t len = 0;

	if (n > SCT_MAX_STACK_FRAMES)
		return -SCT_E_LIMIT;
	for (size_t i = 0; i < n; i++) {
		size_t k = varint_put(tmp, f[i].module_id);

		k += varint_put(tmp + k, f[i].addr);
		if (k > cap - len)
			return -SCT_E_LIMIT;
		for (size_t j = 0; j < k; j++)
			buf[len + j] = tmp[j];
		len += k;
	}
	return (int)len;
}

int sct_stack_check(const struct sct_stack *st)
{
	struct sct_frame f;
	size_t pos = 0;
	uint32_t n = 0;
	int rc;

	while ((rc = sct_stack_frame_next(&st->frames, &pos, &f)) > 0)
		if (++n > SCT_MAX_STACK_FRAMES)
			return -SCT_E_CORRUPT;
	return rc < 0 ? -SCT_E_CORRUPT : 0;
}
