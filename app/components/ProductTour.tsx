import { type RefObject, useEffect, useRef, useState } from "react";
import { TOUR_VIDEO } from "~/config/video";
import { track } from "~/lib/analytics/client";

/**
 * True once the video is near the viewport and the visitor has scrolled, tapped or typed. The
 * browser stops choosing the largest contentful paint at the first such input, so a poster loaded
 * only then can never be it, on any screen height; before that the box is an empty frame of the
 * same size (no layout shift either way).
 */
function usePosterWhenReached(video: RefObject<HTMLVideoElement | null>): boolean {
  const [reached, setReached] = useState(false);
  useEffect(() => {
    const element = video.current;
    if (!element || reached) return;
    let near = false;
    let interacted = false;
    const check = () => {
      if (near && interacted) setReached(true);
    };
    const observer = new IntersectionObserver(
      ([entry]) => {
        near = entry?.isIntersecting ?? false;
        check();
      },
      { rootMargin: "200px 0px" },
    );
    observer.observe(element);
    const inputs = ["scroll", "pointerdown", "keydown"] as const;
    const onInput = () => {
      interacted = true;
      check();
    };
    for (const name of inputs) window.addEventListener(name, onInput, { passive: true });
    return () => {
      observer.disconnect();
      for (const name of inputs) window.removeEventListener(name, onInput);
    };
  }, [video, reached]);
  return reached;
}

/**
 * The landing page's short product tour: nothing is fetched until the visitor presses play
 * (`preload="none"`), its box is sized by width/height before anything loads, it never plays by
 * itself, and it has English captions. video_start and video_complete go out once per page view.
 */
export function ProductTour() {
  const video = useRef<HTMLVideoElement>(null);
  const sent = useRef({ start: false, complete: false });
  const showPoster = usePosterWhenReached(video);
  const params = { video_title: TOUR_VIDEO.title };
  return (
    <figure className="mx-auto max-w-3xl">
      <video
        ref={video}
        className="aspect-video h-auto w-full rounded-xl border border-slate-800 bg-slate-900"
        width={TOUR_VIDEO.width}
        height={TOUR_VIDEO.height}
        controls
        preload="none"
        playsInline
        poster={showPoster ? TOUR_VIDEO.poster : undefined}
        aria-describedby="product-tour-caption"
        onPlay={() => {
          if (sent.current.start) return;
          sent.current.start = true;
          track("video_start", params);
        }}
        onEnded={() => {
          if (sent.current.complete) return;
          sent.current.complete = true;
          track("video_complete", params);
        }}
      >
        <source src={TOUR_VIDEO.src} type="video/webm" />
        <track kind="captions" src={TOUR_VIDEO.captions} srcLang="en" label="English" default />
        <p>
          Your browser cannot play this video.{" "}
          <a className="link" href={TOUR_VIDEO.src}>
            Download it (WebM)
          </a>
          .
        </p>
      </video>
      <figcaption id="product-tour-caption" className="mt-3 text-sm text-slate-400">
        {TOUR_VIDEO.title}: pick a board, read a pin, watch the serial log, flash firmware. No
        sound; captions in English.
      </figcaption>
    </figure>
  );
}
