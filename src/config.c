// SPDX-License-Identifier: GPL-2.0
/* Placeholder: the real parser lands with the build foundation. */
#include <stdio.h>
#include <string.h>

#include "config.h"

void config_defaults(struct swapctl_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
}

int config_load(struct swapctl_config *cfg, const char *explicit_path,
		char *err, size_t errlen)
{
	(void)cfg;
	(void)explicit_path;
	(void)err;
	(void)errlen;
	return 0;
}
