/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * frames.h: the API of frames.c, the text of the frame classes' figures
 * (frame=), read from a finished result.  Nothing here measures.
 */
#ifndef FRAMES_H
#define FRAMES_H

#include <stdio.h>

struct config;
struct result;

/*
 * On fp, a block for each frame class of a finished result: its
 * deadlines met and missed, the desired CPU it got, its longest stutter,
 * and with --details its wake-up latency and frame time; nothing without
 * frame classes.
 */
void	 frames_print(FILE *, const struct config *, const struct result *);

#endif /* FRAMES_H */
