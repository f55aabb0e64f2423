import { formatBytes } from '../domain/attachments.ts';

const MiB = 1024 * 1024;

/**
 * How much an import may unpack and read, so a hostile file costs bounded time and memory. A ZIP
 * entry is held to its limit by its declared size before it is inflated and by the bytes actually
 * inflated (a header can lie); nothing past a limit is kept.
 */
export const importLimits = {
  /**
   * The JSON of an import (a file, or a ZIP's conversations.json), read whole into one string:
   * V8's strings end near 2^29 characters (512 MiB) anyway. Past it the file is refused.
   */
  jsonBytes: 500 * MiB,
  /** One image of a ChatGPT ZIP (theirs are a few MB): a larger one is left out and reads [image]. */
  imageBytes: 50 * MiB,
  /**
   * Every image of a ZIP together, counting those left out, so the work is bounded too (about 3 s
   * of inflating): later images are left out. With conversations.json, about 1.5 GB at most.
   */
  imagesTotalBytes: 1000 * MiB,
  /**
   * Claude.ai's projects files together (their knowledge is text; a heavy user's come to tens of
   * MB): those past it are left out, and the conversations still import.
   */
  projectsBytes: 200 * MiB,
};

/** Images of a ZIP left out: each over its limit, or past the images' total. */
export interface ImagesLeftOut {
  tooLarge: number;
  overTotal: number;
}

const images = (count: number) => `${count} ${count === 1 ? 'image was' : 'images were'}`;

/** What the user is told of images left out (their messages read [image]); empty when none. */
export function imagesLeftOutNotes({ tooLarge, overTotal }: ImagesLeftOut): string[] {
  return [
    tooLarge > 0 &&
      `${images(tooLarge)} left out: larger than ${formatBytes(importLimits.imageBytes)} unpacked.`,
    overTotal > 0 &&
      `${images(overTotal)} left out: the images came to more than ${formatBytes(importLimits.imagesTotalBytes)}.`,
  ].filter((note) => note !== false);
}
