import { site } from "./site";

/**
 * The landing page's product tour: files in public/video/, made by `npm run video`
 * (scripts/make-video.ts). Its title names it in the page and in video_start / video_complete.
 */
export const TOUR_VIDEO = {
  title: `${site.product.name} in 12 seconds`,
  src: "/video/product-tour.webm",
  poster: "/video/product-tour-poster.webp",
  captions: "/video/product-tour.en.vtt",
  width: 960,
  height: 540,
} as const;
