// Option tables (spec.ts notation) for network inspection and fetching.
// Left out on purpose: curl -K/--config/--engine, wget -e/--execute/
// --use-askpass/--config, aria2c --on-*/--conf-path, yt-dlp --exec/
// --downloader/--ffmpeg-location/--plugin-dirs/--cookies-from-browser,
// openssl -engine/-provider/-config, nc -e/-c/-l, ncat --exec/--sh-exec/
// --lua-exec, ss -K/-D, iptables-save -M, ip -b/-batch/-force, nmcli -s/
// --show-secrets, tailscale status --web, ntpq -c, httpie --session.
// curl's -n/--netrc/--netrc-optional are left out too: ~/.netrc's login for the
// URL's host (its `default` entry for any host) goes with the request.
// Values that may name a file to send or print (`curl -H @F`, `-w @F`,
// `-b F`, `dig -f F`, `wget -i F`) are judged as reads.
const CURL = `-s -S -L -f -k -v -i -I -G -N -# -0 -1 -2 -3 -4 -6 -j -l -p -q -R -Z -o=> -O -J -D=> -c=> -b=< -H=< -w=< -A= -e= -u= -x=
  -U= -m= -r= -C= -z= -y= -Y= -t= -E= --silent --show-error --location --location-trusted --fail --fail-with-body --insecure --verbose
  --include --head --get --no-buffer --progress-bar --compressed --http1.0 --http1.1 --http2 --http2-prior-knowledge --http3 --ipv4
  --ipv6 --remote-name --remote-name-all --remote-header-name --remote-time --create-dirs --output=> --output-dir=> --dump-header=>
  --cookie-jar=> --cookie=< --header=< --write-out=< --user-agent= --referer= --user= --proxy= --proxy-user= --max-time= --range=
  --continue-at= --time-cond= --connect-timeout= --retry= --retry-delay= --retry-max-time= --retry-all-errors --retry-connrefused
  --max-redirs= --max-filesize= --limit-rate= --resolve= --connect-to= --interface= --dns-servers= --cacert=< --capath=< --cert= --key=
  --cert-type= --key-type= --pinnedpubkey= --tlsv1.2 --tlsv1.3 --tls-max= --ciphers= --proto= --proto-redir= --url= --request=
  --oauth2-bearer= --basic --digest --ntlm --negotiate --anyauth --noproxy= --socks5= --socks5-hostname= --unix-socket=
  --abstract-unix-socket= --path-as-is --globoff --no-progress-meter --stderr=> --trace=> --trace-ascii=> --trace-time --libcurl=>
  --etag-save=> --etag-compare=< --hsts=> --alt-svc=> --ssl --ssl-reqd --no-keepalive --tcp-nodelay --tcp-fastopen --parallel
  --parallel-max= --fail-early --styled-output --no-styled-output --raw --ignore-content-length --keepalive-time= --expect100-timeout=
  --happy-eyeballs-timeout-ms= --doh-url= --mail-from= --mail-rcpt= --json= --data= --data-raw= --data-binary= --data-ascii=
  --data-urlencode= -d= -F= --form= --form-string= -X= --upload-file= -T= --variable= --expand-url=`;
const DNS = "-4 -6 -b= -c= -f=< -k= -m -p= -q= -r -t= -u -x= -v";
const OPENSSL_IN = "-in=< -inform= -noout -text";
const openssl = (subs: string, opts: string): Record<string, string> => ({ [`openssl ${subs.split(" ").join("|")}`]: opts });
const IP_OBJECTS = "a addr address l link r route n neigh neighbor rule netns maddr mroute tunnel ntable tuntap vrf mptcp".split(" ");
const IP_VERBS = "show list ls get lst".split(" ");
const IP: Record<string, string> = Object.fromEntries([
  ...IP_OBJECTS.map((o) => [`ip ${o}`, "@sub"]),
  ...IP_OBJECTS.map((o) => [`ip ${o} ${IP_VERBS.join("|")}`, ""]),
]);

export const NETWORK: Record<string, string> = {
  curl: CURL,
  wget: `-q -v -nv -S -N -c -x -r -l= -np -nd -nH -k -K -p -m -A= -R= -U= -T= -t= -w= -O=> -P=> -o=> -a=> -i=< -b -E -4 -6 -F -B=
    --quiet --verbose --no-verbose --server-response --timestamping --continue --force-directories --recursive --level= --no-parent
    --no-directories --no-host-directories --convert-links --backup-converted --page-requisites --mirror --accept= --reject=
    --user-agent= --timeout= --tries= --wait= --output-document=> --directory-prefix=> --output-file=> --append-output=> --input-file=<
    --header=< --no-check-certificate --limit-rate= --user= --password= --ask-password --load-cookies=< --save-cookies=>
    --keep-session-cookies --warc-file=> --spider --no-clobber --content-disposition --trust-server-names --max-redirect=
    --https-only --retry-connrefused --waitretry= --random-wait --show-progress --progress= --no-cache --compression=
    --method= --body-data= --body-file=< --post-data= --post-file=< --secure-protocol= --ca-certificate=< --no-config --inet4-only
    --inet6-only --delete-after --quota= --no-proxy --referer= --max-redirect= --restrict-file-names= --adjust-extension`,
  "http|https|httpie|xh|xhs": `-v -h -b -p= -j -f -F -I -d -c -o=> -a= -A= -m -q -x -P= -S --verbose --headers --body --print= --json --form
    --multipart --follow --ignore-stdin --download --continue --output=> --auth= --auth-type= --check-status --timeout= --verify=
    --cert= --cert-key= --pretty= --style= --offline --max-redirects= --proxy= --all --history-print= --raw= --compress --quiet
    --stream --format-options= --sorted --unsorted --response-charset= --response-mime= --default-scheme= --path-as-is --chunked --boundary=
    --session-read-only=< --http-version= --ssl= --ciphers= --native-tls --bearer=`,
  // Not -i/--input-file: each URI line there may carry its own dir= and out= (written wherever they say) and options.
  aria2c: `-d=> -o= -x= -s= -k= -c -q -j= -Z -V --dir=> --out= --max-connection-per-server= --split= --min-split-size=
    --seed-time= --check-integrity --allow-overwrite= --auto-file-renaming= --summary-interval= --console-log-level= --file-allocation=
    --header= --user-agent= --timeout= --max-tries= --retry-wait= --dry-run= --no-conf --continue --quiet --max-concurrent-downloads=`,
  "yt-dlp": `-f= -o=> -P=> -x -k -q -v -F -g -j -J -s -w -c -i -r= -R= -N= --format= --output=> --paths=> --extract-audio --audio-format=
    --audio-quality= --keep-video --quiet --verbose --list-formats --get-url --dump-json --dump-single-json --simulate --no-overwrites
    --continue --ignore-errors --limit-rate= --retries= --no-playlist --yes-playlist --playlist-items= --write-subs --write-auto-subs
    --sub-langs= --embed-subs --embed-thumbnail --write-thumbnail --skip-download --no-mtime --restrict-filenames --cookies=>
    --no-check-certificates --user-agent= --referer= --add-header= --merge-output-format= --remux-video= --recode-video= --print=
    --flat-playlist --newline --progress --no-progress --abort-on-error --no-warnings --sleep-interval= --max-downloads=
    --concurrent-fragments= --proxy= --geo-bypass --ignore-config`,
  "ping|ping6": "-c= -i= -W= -w= -s= -t= -q -n -4 -6 -D -O -a -A -b -B -I= -l= -L -M= -p= -Q= -R -r -S= -T= -U -v -m= -f",
  "traceroute|traceroute6":
    "-4 -6 -I -T -U -n -d -F -e -A -V -q= -w= -m= -f= -p= -s= -i= -N= -z= -t= -l --icmp --tcp --udp --back --mtu --sport= --port=",
  tracepath: "-4 -6 -b -l= -m= -n -p= #",
  mtr: "-r -w -c= -n -b -4 -6 -T -u -z -j -x -C -l -i= -s= -P= -a= -e -o= -Z= -y= -G= --report --report-wide --report-cycles= --no-dns --show-ips --tcp --udp --aslookup --json --xml --csv --raw --split --interval= --psize= --port= --address= --curses",
  dig: DNS,
  "drill|delv": `${DNS} -a -d -D -i -Q -s -T -z -o= -w=`,
  nslookup: "-type= -query= -port= -timeout= -retry= -debug -nodebug -vc -novc -recurse -norecurse -domain= -search -class= -q= -t=",
  host: "-a -A -c= -C -d -l -i -N= -r -R= -s -t= -T -U -v -V -w -W= -4 -6 -m=",
  whois: "-h= -p= -H -a -b -B -d -g= -G -i= -K -l -L -m -M -q= -r -R -s= -t= -T= -v= -x -I --verbose --no-recursion --host= --port=",
  nc: "-z -v -n -w= -4 -6 -u -N -q= -p= -s= -i= -X= -x= -D -t -C",
  ncat: "-z -v -n -w= -4 -6 -u --wait= --udp --zero --verbose --nodns",
  arping: "-c= -w= -i= -I= -A -U -b -D -f -q -s= -0 -p -P -W= -V",
  fping: "-a -A -c= -C= -d -e -g -i= -l -m -n -p= -q -Q= -r= -s -t= -u -v -4 -6 -b= -B= -f=< -o -r= -x= -X=",
  httping: "-g= -c= -i= -t= -s -S -G -b -B -l -Z -q -v -f -h= -p= -Y",
  iperf3:
    "-c= -p= -t= -P= -R -u -b= -l= -n= -i= -f= -w= -J -4 -6 -V -d -Z -A= -O= -T= --json --bidir --logfile=> --connect-timeout= --reverse --udp --bitrate= --parallel= --time= --bytes= --interval= --format= --window= --verbose --debug --zerocopy --omit= --title=",
  "speedtest|speedtest-cli":
    "--simple --json --csv --secure --list --server= --bytes --no-upload --no-download --single --accept-license --accept-gdpr --format= -f= -s=",
  whatismyip: "",
  ntpq: "-p -n -4 -6 -w -d -i -c=",
  chronyc: "@sub -n -c -h= -p= -4 -6 -m",
  "chronyc tracking|chronyc sources|chronyc sourcestats|chronyc activity": "-v -a @also=chronyc",
  ip: "@sub -br -brief -c -color=? -s -stats -statistics -d -details -4 -6 -j -json -o -oneline -p -pretty -N -n= -netns= -h -human -human-readable -r -resolve -a -all -t -timestamp -ts",
  ...IP,
  ss: `-h -V -H -O -n -r -a -l -o -e -m -p -T -i -s -E -Z -z -N= -b -4 -6 -0 -t -S -u -d -w -x -f= -A= -F=< -M --numeric --resolve --all
    --listening --options --extended --memory --processes --threads --info --summary --tos --cgroup --tipcinfo --context --contexts --net=
    --bpf --ipv4 --ipv6 --packet --tcp --mptcp --sctp --udp --dccp --raw --unix --tipc --vsock --xdp --inet-sockets --family= --query=
    --socket= --no-header --oneline --events --bpf-maps --bpf-map-id=`,
  netstat: `-a -t -u -w -x -l -n -p -e -o -r -i -s -c -g -M -v -W -N -4 -6 -C -F -A= --all --tcp --udp --raw --unix --listening --numeric
    --numeric-hosts --numeric-ports --numeric-users --program --extend --timers --route --interfaces --statistics --continuous --groups
    --masquerade --verbose --wide --symbolic --protocol=`,
  ifconfig: "-a -s -v",
  route: "-n -e -ee -v -F -C -4 -6 -A=",
  arp: "-a -n -e -v -i= -H=",
  "iptables|ip6tables": "-L=? -S=? -n -v -x -t= -w=? --line-numbers --list=? --list-rules=? --numeric --verbose --exact --table= --wait=?",
  "iptables-save|ip6tables-save": "-c -t= -f=> --counters --table= --file=>",
  nft: "@sub -a -n -s -j -t -S -N -e -y -T -u --handle --numeric --stateless --json --terse --service --reversedns --echo --numeric-priority --numeric-protocol --numeric-time",
  "nft list": "@also=nft",
  "firewall-cmd": `--list-all --list-all-zones --list-services --list-ports --list-rich-rules --list-interfaces --list-sources --list-protocols
    --list-forward-ports --list-source-ports --list-icmp-blocks --state --get-active-zones --get-default-zone --get-zones --get-services
    --get-zone-of-interface= --get-zone-of-source= --get-log-denied --get-policies --get-icmptypes --query-service= --query-port=
    --query-masquerade --query-interface= --query-source= --query-panic --query-lockdown --zone= --permanent --policy=`,
  conntrack: "-L -o= -p= -s= -d= -n -f= --family= --src= --dst= --proto= --output= --mark= --zone= --status= --dump",
  ufw: "@sub --dry-run",
  "ufw status|ufw show": "",
  "ufw app": "@sub",
  "ufw app list|ufw app info": "",
  tcpdump: "-D --list-interfaces",
  ethtool:
    "-i -k -S -a -c -g -m -T -P -l -d -e --driver --show-features --show-offload --statistics --show-pause --show-coalesce --show-ring --dump-module-eeprom --module-info --show-time-stamping --show-permaddr --show-channels --json",
  nmcli: "@sub -t -f= -g= -m= -p -c= -e= -w= --terse --fields= --get-values= --mode= --pretty --colors= --escape= --wait=",
  "nmcli g|nmcli general|nmcli d|nmcli device|nmcli c|nmcli connection|nmcli n|nmcli networking|nmcli r|nmcli radio": "@sub @also=nmcli",
  ...Object.fromEntries(
    "g general d device c connection n networking r radio"
      .split(" ")
      .map((o) => [`nmcli ${o} status|show|list|s|l`, "--active --order= @also=nmcli"]),
  ),
  wg: "@sub",
  "wg show": "",
  tailscale: "@sub --socket=",
  "tailscale status": "--json --peers --self --active",
  "tailscale ip": "-4 -6 -1",
  "tailscale netcheck|tailscale version": "--format= --every= --verbose --json --daemon --upstream",
  "tailscale ping": "--c= --until-direct --tsmp --icmp --verbose --timeout= --peerapi",
  "tailscale whois": "--json",
  bridge: "@sub -s -d -j -p -c -statistics -details -json -pretty -color=?",
  "bridge link|bridge fdb|bridge vlan": "@sub @also=bridge",
  ...Object.fromEntries(["link", "fdb", "vlan"].map((o) => [`bridge ${o} show|list`, "@also=bridge"])),
  brctl: "@sub",
  "brctl show|brctl showmacs|brctl showstp": "",
  iw: "@sub",
  "iw dev": "",
  iwconfig: "",
  openssl: "@sub",
  ...openssl(
    "s_client",
    `-connect= -servername= -showcerts -status -brief -verify= -verify_return_error -CAfile=< -CApath=< -cert= -key=
    -tls1_2 -tls1_3 -tls1_1 -alpn= -starttls= -quiet -no_ign_eof -ign_eof -crlf -debug -msg -state -prexit -reconnect -sess_out=>
    -sess_in=< -keylogfile=> -host= -port= -proxy= -ipv4 -ipv6 -4 -6 -noservername -verify_hostname= -nocommands -timeout -cipher=
    -ciphersuites= -curves= -groups= -sigalgs= -no_tls1_3 -no_tls1_2 -dane_tlsa_domain= -dane_tlsa_rrdata= -ct -noct`,
  ),
  ...openssl(
    "x509",
    `${OPENSSL_IN} -subject -issuer -dates -enddate -startdate -serial -fingerprint -sha1 -sha256 -sha512 -md5 -pubkey
    -modulus -purpose -ext= -outform= -nameopt= -certopt= -checkend= -checkhost= -checkemail= -checkip= -hash -subject_hash -issuer_hash
    -ocspid -ocsp_uri -email -alias -nocert -out=>`,
  ),
  ...openssl("req", `${OPENSSL_IN} -verify -subject -pubkey -modulus -nameopt= -reqopt=`),
  ...openssl("crl", `${OPENSSL_IN} -hash -issuer -lastupdate -nextupdate -fingerprint -crlnumber`),
  ...openssl("asn1parse", `-in=< -inform= -i -dump -offset= -length= -strparse= -noout`),
  ...openssl(
    "verify",
    `-CAfile=< -CApath=< -untrusted=< -purpose= -verbose -show_chain -crl_check -partial_chain -x509_strict -no-CAfile -no-CApath -attime=`,
  ),
  ...openssl("version", "-a -v -b -o -f -p -d -e -c -r -m"),
  ...openssl("ciphers", "-v -V -s -tls1_2 -tls1_3 -psk -stdname -convert="),
  ...openssl(
    "list",
    `-commands -digest-commands -digest-algorithms -cipher-commands -cipher-algorithms -public-key-algorithms
    -public-key-methods -key-managers -kdf-algorithms -mac-algorithms -providers -disabled -1 -verbose -standard-commands -signature-algorithms`,
  ),
  ...openssl("dgst", "-sha256 -sha1 -sha512 -md5 -sha384 -sha224 -sha3-256 -sha3-512 -r -hex -binary -c -d -list"),
  ...openssl("errstr", ""),
  ...openssl("rand", "-hex -base64 -out=>"),
  "ssh-keygen": "-l -f= -E= -v -F= -y -B -L -q",
  "ssh-add": "-l -L -E= -v -q",
  "ssh-keyscan": "-4 -6 -c -D -f=< -H -p= -T= -t= -v",
};
