import { data } from "react-router";

/** Every unmatched path: a 404 rendered by the root error boundary ("Page not found: {path}"). */
export function loader() {
  throw data(null, { status: 404, statusText: "Not Found" });
}

export default function NotFound() {
  return null;
}
