// Option tables (spec.ts notation) for containers, clusters and instances.
// Left out on purpose: docker --config/-H/--host (a client config names
// credential-helper programs; an ssh:// host runs ssh), kubectl
// --kubeconfig/--server/-s (a kubeconfig's exec plugin runs a program, a
// server of the caller's choosing receives the token), helm --post-renderer,
// kustomize --enable-exec/--enable-alpha-plugins, stern --kubeconfig.
const DOCKER_GLOBAL = "--context= -c= -D --debug -l= --log-level= --tls --tlsverify";
const DOCKER_READ = `-a -q -s -f= -n= -t -l --all --quiet --size --filter= --format= --no-trunc --last= --latest --digests --tree --since=
  --until= --tail= --timestamps --details --follow --type= --limit= --no-stream --human=? -H --stars= --verbose -v --pretty --platform=`;
const KUBE_GLOBAL = `-n= -A -o= -l= -w -L= -c= -f=< -k= -R --namespace= --all-namespaces --output= --selector= --watch --watch-only --label-columns=
  --show-labels --show-kind --no-headers --sort-by= --field-selector= --chunk-size= --context= --cluster= --user= --request-timeout=
  --insecure-skip-tls-verify --certificate-authority=< -v= --v= --template= --allow-missing-template-keys --ignore-not-found
  --server-print --show-managed-fields --output-watch-events --raw= --subresource= --container= --previous -p --since= --since-time=
  --tail= --timestamps --limit-bytes= --all-containers --prefix --max-log-requests= --ignore-errors --pod-running-timeout= --follow
  --recursive --filename=< --kustomize= --for= --timeout= --sort-by= --api-group= --namespaced --verbs= --cached --containers
  --use-protocol-buffers --no-headers --sum --quiet -q --short --client --as= --as-group= --as-uid= --list --revision= --types=`;
const HELM = `-n= -A -a -o= -q -d -r -m= -l= --namespace= --all-namespaces --all --output= --short --date --reverse --max= --offset= --filter=
  --selector= --deployed --failed --pending --superseded --uninstalled --uninstalling --kube-context= --revision= --template= --version=
  --devel --values=< -f=< --set= --set-string= --set-file=< --set-json= --show-only= -s= --api-versions= --kube-version= --include-crds
  --skip-crds --skip-tests --validate --is-upgrade --release-name --name-template= --repo= --strict --with-subcharts --quiet
  --max-col-width= --regexp --version= --versions --fail-on-no-result --debug --no-hooks --dependency-update`;

export const CONTAINERS: Record<string, string> = {
  "docker|podman|nerdctl": `@sub ${DOCKER_GLOBAL}`,
  "docker ps|docker images|docker inspect|docker logs|docker top|docker port|docker diff|docker version|docker info|docker history|docker search|docker stats|docker events": `${DOCKER_READ} @also=docker`,
  "podman ps|podman images|podman inspect|podman logs|podman top|podman port|podman diff|podman version|podman info|podman history|podman search": `${DOCKER_READ} @also=podman`,
  "docker container|docker image|docker network|docker volume|docker context|docker plugin|docker secret|docker config|docker node|docker service|docker stack|docker system|docker buildx|docker manifest|docker scout|docker compose":
    "@sub @also=docker",
  ...Object.fromEntries(
    "container image network volume context plugin secret config node service stack"
      .split(" ")
      .map((o) => [`docker ${o} ls|list|inspect|history|show|ps|logs`, `${DOCKER_READ} @also=docker`]),
  ),
  "docker system df|docker system info|docker system events": `${DOCKER_READ} @also=docker`,
  "docker buildx ls|docker buildx inspect|docker buildx du|docker buildx version": `${DOCKER_READ} --builder= --bootstrap @also=docker`,
  "docker manifest inspect": "--insecure -v --verbose @also=docker",
  "docker scout cves|docker scout quickview|docker scout recommendations":
    "--format= --only-severity= --only-fixed --ignore-base --org= --platform= --output=> -o=> --exit-code --locations --only-package-type= --multi-stage @also=docker",
  "docker compose ps|docker compose logs|docker compose config|docker compose ls|docker compose images|docker compose top|docker compose port|docker compose version|docker compose events": `${DOCKER_READ} --services --volumes --profiles --images --hash= --resolve-image-digests --no-interpolate --no-normalize --no-path-resolution --no-consistency --json --short --status= --no-log-prefix --no-color --index= --protocol= -o=> --output=> @also=docker/compose`,
  "docker-compose": "@sub -f=< -p= --file=< --project-name= --project-directory= --profile= --env-file=<",
  "docker-compose ps|docker-compose logs|docker-compose config|docker-compose images|docker-compose top|docker-compose port|docker-compose version": `${DOCKER_READ} --services --volumes --profiles --hash= --resolve-image-digests --no-interpolate --no-log-prefix --no-color --index= --protocol= @also=docker-compose`,
  crictl: "@sub -r= --runtime-endpoint= -i= --image-endpoint= -t= --timeout= -D --debug",
  "crictl ps|crictl images|crictl inspect|crictl logs|crictl info|crictl version|crictl pods":
    "-a -q -o= -v --all --quiet --output= --name= --namespace= --label= --state= --pod= -s= --since= --tail= -f -t --timestamps --digests --no-trunc --latest -l --id= @also=crictl",
  ctr: "@sub -n= --namespace= -a= --address=",
  "ctr images|ctr containers|ctr tasks": "@sub @also=ctr",
  ...Object.fromEntries(["images", "containers", "tasks"].map((o) => [`ctr ${o} ls|list`, "-q --quiet @also=ctr"])),
  dive: "--ci --source= --ci-config=< --highestUserWastedPercent= --lowestEfficiency= --highestWastedBytes= -j=> --json=>",
  lazydocker: "",
  kubectl: `@sub ${KUBE_GLOBAL}`,
  "kubectl get|kubectl describe|kubectl logs|kubectl explain|kubectl version|kubectl api-resources|kubectl api-versions|kubectl cluster-info|kubectl diff|kubectl events|kubectl wait":
    "@also=kubectl",
  "kubectl auth|kubectl config|kubectl rollout|kubectl top": "@sub @also=kubectl",
  "kubectl top pod|kubectl top pods|kubectl top node|kubectl top nodes|kubectl auth can-i|kubectl config view|kubectl config get-contexts|kubectl config current-context|kubectl config get-clusters|kubectl rollout status|kubectl rollout history":
    "@also=kubectl",
  helm: `@sub ${HELM}`,
  "helm list|helm ls|helm status|helm history|helm search|helm template|helm lint|helm version|helm env|helm get|helm show|helm dependency|helm repo":
    "@also=helm",
  "helm search repo|helm search hub|helm get values|helm get manifest|helm get notes|helm get all|helm get hooks|helm get metadata|helm show values|helm show chart|helm show readme|helm show all|helm show crds|helm dependency list|helm repo list":
    "@also=helm",
  kubectx: "-c --current -u --unset",
  kubens: "-c --current",
  kustomize: "@sub",
  // Not --load-restrictor: LoadRestrictionsNone lets a kustomization's generators read any file (`files: [~/.ssh/id_rsa]`).
  "kustomize build": "-o=> --output=> --enable-helm --reorder= --stack-trace",
  stern:
    "-n= -c= -l= -t -s= -o= -A -i= -e= -E= --namespace= --container= --selector= --timestamps=? --since= --output= --template= --all-namespaces --context= --tail= --exclude= --include= --exclude-container= --color= --no-follow --container-state= --field-selector= --max-log-requests=",
  "incus|lxc": "@sub --project= --quiet -q --verbose -v --debug --all-projects",
  ...Object.fromEntries(
    ["incus", "lxc"].map((t) => [
      `${t} list|ls|info|version`,
      `-c= -f= --format= --columns= --all-projects --project= --refresh --show-log --resources @also=${t}`,
    ]),
  ),
  "incus image|incus profile|incus config|incus network|incus storage|incus snapshot|incus remote|incus operation|lxc image|lxc profile|lxc config|lxc network|lxc storage":
    "@sub",
  ...Object.fromEntries(
    [
      "incus image",
      "incus profile",
      "incus network",
      "incus storage",
      "incus snapshot",
      "incus remote",
      "incus operation",
      "lxc image",
      "lxc profile",
      "lxc network",
      "lxc storage",
    ].map((t) => [`${t} list|ls|show`, "-c= -f= --format= --columns= --all-projects --project="]),
  ),
  "incus config show|lxc config show": "--expanded --target= --project=",
};
