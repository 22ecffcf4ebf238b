// One unary gRPC call as a promise with a deadline, for every client of a
// service socket (the gateway, the CLI, tests): rejects with the ServiceError.
import { Metadata, type CallOptions, type Client, type ServiceError } from "@grpc/grpc-js";

type Callback<Res> = (err: ServiceError | null, res: Res) => void;
type Unary<Req, Res> = (req: Req, meta: Metadata, opts: Partial<CallOptions>, cb: Callback<Res>) => unknown;

/** Calls a unary method with a deadline; rejects with the ServiceError. */
export function call<Req, Res>(client: Client, method: Unary<Req, Res>, req: Req, timeoutMs: number): Promise<Res> {
  return new Promise((resolve, reject) => {
    method.call(client, req, new Metadata(), { deadline: new Date(Date.now() + timeoutMs) }, (err, res) =>
      err ? reject(err) : resolve(res),
    );
  });
}
