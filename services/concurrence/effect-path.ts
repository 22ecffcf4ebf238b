// What changing one path of a diff does, before anything about its content
// or metadata: a write or a delete judged by the concurrence's own path
// tables (paths.ts), the rule that nothing removes a whole entry of /etc,
// /usr, /boot, /root or the homes, and the least tier of the place it lies
// in (scratch 1, the system's tree 3, anywhere else 2).
import { isWholeEntry, judgeDestroy, judgeWrite, literalPath, type Place, placeOf } from "./paths.js";
import { type Finding, type JudgeContext, finding, worst } from "./types.js";

export type PathEffect = "write" | "delete" | "delete-tree";

const FLOOR: Record<Place, Finding["tier"]> = { scratch: 1, system: 3, elsewhere: 2 };

function placeReason(place: Place, path: string): string {
  if (place === "scratch") return `scratch space ${path}`;
  if (place === "system") return `changes the system path ${path}`;
  return `changes ${path}, in a home or a place the concurrence cannot place`;
}

export function judgePathEffect(path: string, effect: PathEffect, ctx: JudgeContext): Finding {
  const rp = literalPath(path);
  let f = effect === "write" ? judgeWrite(rp, ctx) : judgeDestroy(rp, effect === "delete-tree", ctx);
  if (effect !== "write" && isWholeEntry(path))
    f = worst(f, finding(4, `removes ${path}, a whole entry of the system's identity, programs or homes`));
  const place = placeOf(path);
  return worst(f, finding(FLOOR[place], placeReason(place, path)));
}
