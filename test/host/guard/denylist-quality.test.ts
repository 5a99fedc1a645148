// T18: the default denylist's quality — every secret-file name of the fixtures denied, most of leaky-repo by name, few ordinary files.
import test from "ava";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { compileDenylist } from "../../../host/guard/index.js";

const REPO = fileURLToPath(new URL("../../../../", import.meta.url));
const dl = compileDenylist();

/** Secret files by name: one or more of each class the default list covers, as they appear in trees and home folders. */
const SECRET_FILES = [
  // environment files
  ".env", "app/.env", ".env.local", ".env.production", "deploy/prod.env", ".ENV", ".Env.Local", ".envrc",
  // private keys and certificates with keys
  "certs/server.pem", "config/master.key", "keys/private.key", "misc/putty.ppk", "AuthKey_ABC123.p8",
  "id_rsa", "home/u/.ssh/id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", "ID_RSA",
  "etc/ssh/ssh_host_rsa_key", "etc/ssh/ssh_host_ecdsa_key", "etc/ssh/ssh_host_ed25519_key", "ssh_host_key",
  "secring.gpg", "vpn/office.ovpn",
  // key stores, password stores, keychains
  "android/release.jks", "release.keystore", "cert.p12", "cert.pfx", "bundle.pkcs12", "vault.kdbx", "old.kdb", "pw.psafe3",
  "Library/Keychains/login.keychain-db", "login.keychain", ".local/share/keyrings/login.keyring", ".password-store/email.gpg",
  "wallet.dat", ".config/op/config",
  // ssh and gnupg folders
  ".ssh/config", ".ssh/known_hosts", ".ssh/authorized_keys", ".gnupg/pubring.kbx",
  // cloud CLIs
  ".aws/credentials", ".aws/config", ".aws/sso/cache/x.json", ".azure/accessTokens.json", ".config/gcloud/credentials.db",
  ".config/gcloud/application_default_credentials.json", "application_default_credentials.json", ".oci/config",
  ".config/doctl/config.yaml", ".config/gh/hosts.yml", ".config/hub", ".databrickscfg", ".terraform.d/credentials.tfrc.json",
  ".terraformrc", ".fly/config.yml", ".aliyun/config.json", ".bluemix/config.json",
  // service-account files
  "gcp/my-project-service-account.json", "serviceAccountKey.json", "keys/ci_service_account.json", "gcp-credentials.json", "google_credentials.json",
  "credentials.json", "client_secret_1234.apps.googleusercontent.com.json",
  // Kubernetes and Docker
  ".kube/config", ".kube/cache/discovery/x.json", "kubeconfig", "prod.kubeconfig", ".minikube/profiles/minikube/client.key",
  "var/run/secrets/kubernetes.io/serviceaccount/token", ".docker/config.json", ".dockercfg",
  // git and package registries
  ".git/config", ".git-credentials", ".config/git/credentials", ".gitcookies", ".netrc", "_netrc", ".npmrc", ".pypirc",
  ".gem/credentials", ".cargo/credentials.toml", ".m2/settings.xml", ".m2/settings-security.xml", ".gradle/gradle.properties",
  ".composer/auth.json",
  // databases
  ".pgpass", ".my.cnf", ".mylogin.cnf", ".s3cfg", ".boto", ".vault-token", "rclone.conf",
  // shell and REPL histories
  ".bash_history", ".zsh_history", ".zhistory", ".history", ".histfile", ".python_history", ".node_repl_history", ".psql_history",
  ".mysql_history", ".sqlite_history", ".irb_history", ".rediscli_history", ".local/share/fish/fish_history", ".Rhistory",
  "AppData/Roaming/Microsoft/Windows/PowerShell/PSReadLine/ConsoleHost_history.txt", ".julia/logs/repl_history.jl", ".lesshst", ".viminfo", ".dbshell",
  // browser profiles
  ".mozilla/firefox/abc.default/logins.json", ".config/google-chrome/Default/Login Data", ".config/chromium/Default/Cookies",
  ".config/BraveSoftware/Brave-Browser/Default/Web Data", "Library/Application Support/Google/Chrome/Default/Cookies",
  "Library/Application Support/Firefox/Profiles/x/key4.db", "Library/Safari/History.db", "AppData/Local/Google/Chrome/User Data/Default/Login Data",
  "profile/logins.json", "profile/key3.db", "profile/cookies.sqlite", "profile/signons.sqlite",
  // state and variables
  "infra/terraform.tfstate", "infra/terraform.tfstate.backup", "infra/prod.tfvars",
  // conventions
  "config/secrets.yml", "secrets.yaml", "secrets.json", "etc/shadow", "etc/gshadow", "etc/master.passwd", "public_html/wp-config.php",
  ".htpasswd", "proftpdpasswd",
  // tools that keep server passwords
  "filezilla/recentservers.xml", "filezilla/sitemanager.xml", "filezilla/filezilla.xml", "db/robomongo.json", "db/dbeaver-data-sources.xml",
  ".dbeaver/credentials-config.json", ".idea/WebServers.xml", ".idea/dataSources.local.xml", "sftp-config.json", ".vscode/sftp.json",
  ".ftpconfig", ".remote-sync.json", "deployment-config.json", "cloud/heroku.json", "cloud/.tugboat", "cloud/.credentials",
  "ventrilo_srv.ini", ".esmtprc", ".msmtprc", ".fetchmailrc",
];

/** leaky-repo's 44 files that hold secrets (its .leaky-meta/secrets.csv). */
const LEAKY_REPO = [
  ".bash_profile", ".bashrc", ".docker/.dockercfg", ".docker/config.json", ".mozilla/firefox/logins.json", ".ssh/id_rsa", ".ssh/id_rsa.pub",
  "cloud/.credentials", "cloud/.s3cfg", "cloud/.tugboat", "cloud/heroku.json", "db/dump.sql", "db/mongoid.yml", "etc/shadow",
  "filezilla/recentservers.xml", "filezilla/filezilla.xml", "high-entropy-misc.txt", "misc-keys/cert-key.pem", "misc-keys/putty-example.ppk",
  "proftpdpasswd", "web/ruby/config/master.key", "web/ruby/secrets.yml", "web/var/www/.env", ".npmrc", "web/var/www/public_html/wp-config.php",
  "web/var/www/public_html/.htpasswd", ".git-credentials", "db/robomongo.json", "web/js/salesforce.js", ".netrc", "hub", "config", "db/.pgpass",
  "ventrilo_srv.ini", "web/var/www/public_html/config.php", "db/dbeaver-data-sources.xml", ".esmtprc", "web/django/settings.py",
  "deployment-config.json", ".ftpconfig", ".remote-sync.json", ".vscode/sftp.json", "sftp-config.json", ".idea/WebServers.xml",
];

/** The leaky-repo files whose names say nothing: their secrets are left to redaction. */
const LEAKY_BY_CONTENT_ONLY = [
  ".bash_profile", ".bashrc", "db/dump.sql", "db/mongoid.yml", "high-entropy-misc.txt", "web/js/salesforce.js", "hub", "config",
  "web/var/www/public_html/config.php", "web/django/settings.py",
];

test("every name of the secret-file fixtures (60 and more, leaky-repo's included) is denied", (t) => {
  const names = [...new Set([...SECRET_FILES, ...LEAKY_REPO.filter((f) => !LEAKY_BY_CONTENT_ONLY.includes(f))])];
  t.true(names.length >= 60, `${names.length} names`);
  const readable = names.filter((p) => dl.match(p, false) === null);
  t.deepEqual(readable, []);
  t.log(`${names.length} of ${names.length} secret-file names denied (100%)`);
});

test("at least 30 of leaky-repo's 44 files are denied by name alone; the rest are left to redaction", (t) => {
  t.is(LEAKY_REPO.length, 44);
  const denied = LEAKY_REPO.filter((p) => dl.match(p, false) !== null);
  const readable = LEAKY_REPO.filter((p) => dl.match(p, false) === null);
  t.deepEqual(readable, LEAKY_BY_CONTENT_ONLY);
  t.true(denied.length >= 30);
  t.log(`${denied.length} of 44 leaky-repo files denied by name`);
});

test("on 10,000 ordinary files (this project, its build and its node_modules) 1% or fewer are denied", (t) => {
  const files: string[] = [];
  // Breadth-first, names sorted: the same sample every run.
  const walk = (rel: string, skip: (name: string) => boolean): void => {
    const queue = [rel];
    while (queue.length > 0 && files.length < 10_000) {
      const dir = queue.shift() as string;
      let entries;
      try {
        entries = readdirSync(join(REPO, dir), { withFileTypes: true });
      } catch {
        continue;
      }
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const e of entries) {
        const p = dir === "" ? e.name : `${dir}/${e.name}`;
        if (skip(e.name) && dir === rel) continue;
        if (e.isDirectory()) queue.push(p);
        else if (e.isFile() && files.length < 10_000) files.push(p);
      }
    }
  };
  // The sources and their build (dist/ exists once npm test has built), then the dependencies.
  walk("", (n) => n === ".git" || n === "node_modules");
  walk("node_modules", () => false);
  t.true(files.length >= 10_000, `${files.length} files`);
  const denied = files.filter((p) => dl.match(p.startsWith("node_modules/") ? p.slice("node_modules/".length) : p, false) !== null);
  t.log(`${denied.length} of ${files.length} ordinary files denied (${((100 * denied.length) / files.length).toFixed(2)}%): ${denied.slice(0, 12).join(", ")}`);
  t.true(denied.length <= files.length / 100);
});
