// Fake secrets for the redactor's tests, built by concatenation so that no scanner mistakes the repository for a leak.

/** Mixed-case letters and digits, like generated keys: the first n characters of a fixed cycle. */
export function mix(n: number): string {
  const cycle = "aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0xR";
  let s = "";
  while (s.length < n) s += cycle;
  return s.slice(0, n);
}

/** Lowercase hex digits, n of them. */
export function hex(n: number): string {
  let s = "";
  for (let i = 0; s.length < n; i++) s += ((i * 7 + 3) % 16).toString(16);
  return s;
}

/** A text holding a secret: after redaction `secret` must be gone and `rule` counted. */
export interface TruePositive {
  readonly text: string;
  readonly secret: string;
}

/** Per rule: texts holding its secret shape, and look-alikes it must leave alone (the whole redactor must). */
export interface RuleFixtures {
  readonly positives: readonly TruePositive[];
  readonly negatives: readonly string[];
}

const B64_LINE = "MIIEow" + "IBAAKCAQEA" + mix(48);
const keyBody = `${B64_LINE}\n${mix(64)}\n${mix(40)}==`;
const pem = (label: string) => `-----BEGIN ${label}-----\n${keyBody}\n-----END ${label}-----`;

const pw = "S3cr3t" + "-P4ss!x";
const awsSecret = "wJalrXUtnFEMI" + "/K7MDENG/" + "bPxRfiCY" + "EXAMPLEKE1";

/** Fixtures by rule name; every rule of DEFAULT_RULES has an entry. */
export const FIXTURES: Readonly<Record<string, RuleFixtures>> = {
  "private-key": {
    positives: [
      { text: pem("RSA " + "PRIVATE KEY"), secret: B64_LINE },
      { text: "key:\n" + pem("OPENSSH " + "PRIVATE KEY") + "\ntrailer", secret: mix(64) },
      { text: pem("EC " + "PRIVATE KEY"), secret: B64_LINE },
      { text: pem("PGP " + "PRIVATE KEY BLOCK"), secret: B64_LINE },
      // Cut off before its END line (a truncated tool output).
      { text: "-----BEGIN " + "PRIVATE KEY-----\n" + keyBody.slice(0, 100), secret: B64_LINE },
    ],
    negatives: [
      "-----BEGIN PUBLIC KEY-----\n" + keyBody + "\n-----END PUBLIC KEY-----",
      "-----BEGIN CERTIFICATE-----\n" + keyBody + "\n-----END CERTIFICATE-----",
      "a file starting with -----BEGIN RSA " + "PRIVATE KEY----- holds a key; never print it",
    ],
  },
  "aws-access-key-id": {
    positives: [
      { text: "aws_access_key_id = " + "AKIA" + "Q7X2B9K4M1N8P3R6", secret: "Q7X2B9K4M1N8P3R6" },
      { text: '{"AccessKeyId": "' + "ASIA" + 'Z7Y6X5W4V3U2T1S0"}', secret: "Z7Y6X5W4V3U2T1S0" },
    ],
    negatives: ["AKIA is the prefix of long-term keys", "AKIA" + "Q7X2B9K4M1N8P3R", "XAKIA" + "Q7X2B9K4M1N8P3R6"],
  },
  "aws-secret-access-key": {
    positives: [
      { text: "aws_secret_access_key=" + awsSecret, secret: awsSecret },
      { text: '"SecretAccessKey": "' + awsSecret + '"', secret: awsSecret },
    ],
    negatives: ["aws_secret_access_key = os.environ[KEY]", "secret_access_key: short"],
  },
  "gcp-api-key": {
    positives: [{ text: "key=" + "AIza" + "Sy" + mix(33), secret: "Sy" + mix(33) }],
    negatives: ["AIza" + "Sy" + "short", "keys start with AIza"],
  },
  "gcp-oauth": {
    positives: [
      { text: "Bearer-less ya29." + mix(40), secret: mix(40) },
      { text: "client secret GOCSPX-" + mix(28), secret: mix(28) },
    ],
    negatives: ["ya29.short", "GOCSPX-" + "short"],
  },
  "azure-key": {
    positives: [
      {
        text: "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=" + mix(86) + "==;EndpointSuffix=core.windows.net",
        secret: mix(86),
      },
      { text: "https://acct.blob.core.windows.net/c/b?sv=2022-11-02&sp=r&sig=" + mix(43) + "%3D", secret: mix(43) },
      { text: "AZURE_CLIENT_SECRET " + "abc8" + "Q~" + mix(34), secret: mix(34) },
    ],
    negatives: ["DefaultEndpointsProtocol=https;AccountName=acct;EndpointSuffix=core.windows.net", "https://x.example/?sig=short"],
  },
  "github-token": {
    positives: [
      { text: "GITHUB_TOKEN=" + "gh" + "p_" + mix(36), secret: mix(36) },
      { text: "token gh" + "s_" + mix(36) + " expires", secret: mix(36) },
      { text: "github" + "_pat_" + mix(22) + "_" + mix(59), secret: mix(59) },
    ],
    negatives: ["ghp_short", "ghx_" + mix(36), "the github_pat_ prefix"],
  },
  "gitlab-token": {
    positives: [{ text: "PRIVATE-TOKEN: gl" + "pat-" + mix(20), secret: mix(20) }],
    negatives: ["glpat-short", "glpatx-" + mix(20).toLowerCase()],
  },
  "slack-token": {
    positives: [
      { text: "xox" + "b-1234567890-1234567890123-" + mix(24), secret: mix(24) },
      { text: "xa" + "pp-1-A0123456789-1234567890123-" + hex(40), secret: hex(40) },
      { text: "https://hooks.slack.com/services/" + "T0123ABCD/B0123ABCD/" + mix(24), secret: mix(24) },
    ],
    negatives: ["xoxb-", "xoxz-1234567890123", "https://hooks.slack.com/services/"],
  },
  "stripe-key": {
    positives: [
      { text: "stripe.api_key = 'sk" + "_live_" + mix(24) + "'", secret: mix(24) },
      { text: "rk" + "_test_" + mix(24), secret: mix(24) },
      { text: "wh" + "sec_" + mix(32), secret: mix(32) },
    ],
    negatives: ["pk" + "_live_" + mix(24), "sk_live_short"],
  },
  "anthropic-key": {
    positives: [{ text: "ANTHROPIC_API_KEY=sk" + "-ant-api03-" + mix(40) + "-" + mix(20), secret: mix(40) }],
    negatives: ["sk-ant-short", "keys start with sk-ant- and a version"],
  },
  "openai-key": {
    positives: [
      { text: "OPENAI_API_KEY=sk" + "-proj-" + mix(48), secret: mix(48) },
      { text: "client = OpenAI(api_key=\"sk" + "-" + mix(48) + "\")", secret: mix(48) },
    ],
    negatives: ["pip install sk-learn-classification-pipeline-v2", "sk-" + "a".repeat(30)],
  },
  "npm-token": {
    positives: [{ text: "//registry.npmjs.org/:_authToken=npm" + "_" + mix(36), secret: mix(36) }],
    negatives: ["npm_config_cache=/tmp/npm", "npm_" + "short"],
  },
  "pypi-token": {
    positives: [{ text: "password = pypi" + "-AgEIcHlwaS5vcmc" + mix(60), secret: mix(60) }],
    negatives: ["pypi-AgEIcHlwaS5vcmc" + "short", "pypi-package-name"],
  },
  "huggingface-token": {
    positives: [{ text: "HF_TOKEN=hf" + "_" + mix(34), secret: mix(34) }],
    negatives: ["from hf_hub_download import x", "hf_" + "transformersdatasetstokenizersabcd"],
  },
  "sendgrid-key": {
    positives: [{ text: "SG" + "." + mix(22) + "." + mix(43), secret: mix(43) }],
    negatives: ["SG.short.x", "Singapore (SG.) office"],
  },
  "digitalocean-token": {
    positives: [{ text: "DIGITALOCEAN_TOKEN=do" + "p_v1_" + hex(64), secret: hex(64) }],
    negatives: ["dop_v1_" + hex(10), "do_v1_ is not a prefix"],
  },
  jwt: {
    positives: [
      {
        text: "session=" + "eyJhbGciOiJIUzI1NiJ9" + ".eyJzdWIiOiIxMjM0NTY3ODkwIn0" + "." + mix(43),
        secret: "eyJzdWIiOiIxMjM0NTY3ODkwIn0",
      },
      { text: "eyJhbGciOiJub25lIn0" + ".eyJzdWIiOiJ4eHh4eHh4In0" + ".", secret: "eyJzdWIiOiJ4eHh4eHh4In0" },
    ],
    negatives: ["header eyJhbGciOiJIUzI1NiJ9 alone", "eyJ.eyJ.x"],
  },
  "url-password": {
    positives: [
      { text: "DATABASE_URL=postgres://admin:" + pw + "@db.internal:5432/app", secret: pw },
      { text: "git clone https://user:" + pw + "@git.example.com/r.git", secret: pw },
      { text: "GET https://example.com/login?user=a&password=" + pw + "&next=/", secret: pw },
    ],
    negatives: [
      "https://example.com:8443/path?q=1",
      "git@github.com:org/repo.git",
      "ssh://git@github.com/org/repo",
      "http://user@host.example/",
      "postgres://user:${DB_PASSWORD}@db/app",
    ],
  },
  "url-token": {
    positives: [
      { text: "https://api.example.com/v1/items?access_token=" + mix(32) + "&page=2", secret: mix(32) },
      { text: "https://maps.example.com/q?api_key=" + mix(24), secret: mix(24) },
    ],
    negatives: ["https://example.com/?token=abc", "https://example.com/?token=getToken&x=1"],
  },
  "connection-string-password": {
    positives: [
      { text: "Server=tcp:db.example.com,1433;Database=app;User ID=sa;Password=" + "hunter2" + ";Encrypt=true", secret: "hunter2" },
      { text: "Pwd=" + "qwerty9" + ";Uid=sa;Server=db", secret: "qwerty9" },
    ],
    negatives: ["PWD=/home/user", "echo $PWD; ls", "Server=db;Password=;Uid=sa", "Server=db;Password=********;"],
  },
  authorization: {
    positives: [
      { text: "Authorization: Bearer " + mix(40), secret: mix(40) },
      { text: "authorization: Basic " + "dXNlcjpw" + "YXNzd29yZA==", secret: "dXNlcjpwYXNzd29yZA==" },
      { text: '{"Authorization":"Bearer ' + mix(30) + '"}', secret: mix(30) },
      { text: 'Proxy-Authorization: Digest username="u", response="' + hex(32) + '"', secret: hex(32) },
      { text: "Authorization: " + mix(32), secret: mix(32) },
    ],
    negatives: [
      "Authorization header is required",
      "Authorization: required",
      'curl -H "Authorization: Bearer $TOKEN" https://api.example.com',
      "def f(authorization: str): pass",
    ],
  },
  "scheme-secret": {
    positives: [
      // The red team's alist, and the environment as (get-environment-variables) prints it.
      { text: '((user . "ann") (password . "' + "correct" + "horse" + '"))', secret: "correcthorse" },
      { text: '(("HOME" . "/home/ann") ("AWS_SECRET_ACCESS_KEY" . "' + awsSecret + '"))', secret: awsSecret },
      { text: '(("MY_SECRET_VALUE" . "' + "plain" + "words" + 'here"))', secret: "plainwordshere" },
      { text: "((api-key . " + mix(24) + "))", secret: mix(24) },
      { text: '(db_password "' + "hunter22" + '")', secret: "hunter22" },
      { text: '(connect #:token "' + mix(20) + '" #:host "db")', secret: mix(20) },
      { text: '((|client secret| . "' + "s3cr" + "etvalue" + '"))', secret: "s3cretvalue" },
      { text: "(list (cons 'password \"" + "hunter" + "2hunter" + "\") (cons 'user \"ann\"))", secret: "hunter2hunter" },
      { text: '(define api-key "' + mix(22) + '")', secret: mix(22) },
    ],
    negatives: [
      '((token-type . "bearer") (max-tokens . 4096))',
      '((password-file . "/run/secrets/db"))',
      '((secret . "changeme"))',
      '((key . "value") (keys . "a,b"))',
      '(("TOKEN_URL" . "https://auth.example.com/token"))',
      '((password . "pw"))',
      '(define token-type "bearer")',
      "(cons 'password-file \"/etc/app/pw\")",
    ],
  },
  "json-secret": {
    positives: [
      { text: 'response {"apiKey": "' + mix(24) + '"} in ' + "12 ms", secret: mix(24) },
      { text: 'got {"user": "ann", "password": "' + "correct" + "horse" + 'battery"}', secret: "correcthorsebattery" },
      { text: 'body: {"MY_SECRET_VALUE": "' + "plain" + "words" + '"}', secret: "plainwords" },
      { text: 'HTTP 200 {"refresh_token":"' + "1//0g" + mix(30) + '"}', secret: "1//0g" + mix(30) },
      // Structured JSON text as a whole is parsed and redacted field by field (counted as generic-assignment);
      // the rule covers JSON inside other text, and JSON in a string literal, quotes escaped.
      { text: '(display "{\\"client_secret\\": \\"' + "plain" + "letters" + '\\"}")', secret: "plainletters" },
    ],
    negatives: [
      '{"token_type": "Bearer", "expires_in": 3600}',
      '{"password": "********"}',
      '{"secret_file": "/run/secrets/db"}',
      '{"token_endpoint": "https://oauth2.example.com/token"}',
      '{"keyword": "value"}',
    ],
  },
  "generic-assignment": {
    positives: [
      { text: "export API_KEY=" + mix(32), secret: mix(32) },
      { text: "DB_PASSWORD='" + "hunter22!" + "'", secret: "hunter22!" },
      { text: "client_secret: " + mix(24), secret: mix(24) },
      { text: "MY_SECRET_VALUE=" + "Qw" + hex(14) + "Xy", secret: "Qw" + hex(14) + "Xy" },
      { text: 'token := "' + mix(20) + '"', secret: mix(20) },
    ],
    negatives: [
      "password = getpass()",
      "token: string",
      "secret = config.secret",
      "API_KEY=${API_KEY}",
      "max_tokens=4096",
      "password: ********",
      "TOKEN_URL=https://auth.example.com/token",
      "secret_file=/run/secrets/db",
      "token = 'changeme'",
      "api_key: <your key here>",
      "token_type=" + mix(12),
      "SECRET_FILE=" + mix(12),
    ],
  },
};

/** Every true-positive secret, for tests that check none reaches a file. */
export const ALL_SECRETS: readonly TruePositive[] = Object.values(FIXTURES).flatMap((f) => f.positives);
