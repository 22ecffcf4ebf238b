// Kubernetes tools: kubectl exec into a pod, helm's post-renderer,
// kustomize's exec plugins (kustomize build, kubectl kustomize).
import type { Word } from "../types.js";
import { literalWord, unwrap } from "../unwrap.js";
import type { Delegate, Unwrap } from "../unwrap.js";
import { pullOptions, Runs } from "./runs.js";

function kubectlExec(args: Word[]): Unwrap {
  const dash = args.findIndex((w) => w.text === "--");
  if (dash < 0) return unwrap("delegate:kubectl-exec", 2, "interactive exec into a pod");
  return unwrap("delegate:kubectl-exec", 0, "runs a command in a pod", { inner: [args.slice(dash + 1)], remote: true });
}

/** `helm … --post-renderer PATH`: helm runs PATH on the rendered manifests. */
function helm(args: Word[]): Unwrap | null {
  const { values, rest } = pullOptions(args, { longs: ["--post-renderer"], not: ["--post-renderer-args"] });
  if (values.length === 0) return null;
  const runs = new Runs();
  for (const v of values) {
    runs.inner.push([literalWord("\u0000script"), v]);
    runs.raise(2, "helm runs a post-renderer program");
  }
  return runs.result("delegate:helm", [[literalWord("helm"), ...rest]]);
}

/** `kustomize build --enable-exec` / `--enable-alpha-plugins`: the kustomization's exec plugins run. */
function kustomize(name: string, args: Word[]): Unwrap | null {
  const on = (w: Word) => /^--(enable-exec|enable-alpha-plugins|enable-star|enable-helm)(=true)?$/.test(w.text);
  if (!args.some(on)) return null;
  return unwrap(`delegate:${name}`, 2, `${name} runs plugins or programs named in the kustomization`, {
    inner: [[literalWord(name), ...args.filter((w) => !on(w))]],
  });
}

export const kubectlDelegate: Delegate = (_name, args) => {
  const sub = args[0]?.text ?? "";
  return sub === "exec" ? kubectlExec(args.slice(1)) : sub === "kustomize" ? kustomize("kubectl", args) : null;
};

export const helmDelegate: Delegate = (_name, args) => helm(args);

export const kustomizeDelegate: Delegate = (name, args) => kustomize(name, args);
