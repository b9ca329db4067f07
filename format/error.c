// SPDX-License-Identifier: BSD-2-Clause
/* sct_strerror(): text for -errno and -SCT_E* codes. */
#include <string.h>

#include "sct.h"

const char *sct_strerror(int err)
{
	switch (-err) {
	case 0:
		return "success";
	case SCT_E_NOT_SCT:
		return "not an sct trace file (no sct label and no valid frame)";
	case SCT_E_VERSION:
		return "trace file format version not supported by this reader: upgrade sct";
	case SCT_E_CORRUPT:
		return "trace data is corrupt beyond recovery";
	case SCT_E_LIMIT:
		return "a length or count exceeds the sct format's limits";
	case SCT_E_STATE:
		return "operation not valid in this state (an earlier error failed the object)";
	default:
		break;
	}
	if (err < 0 && -err < 1000)
		return strerror(-err);
	return "unknown error";
}
