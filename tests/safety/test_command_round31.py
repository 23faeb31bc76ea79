"""Round 31: one decision per principle, from blind cohort 23's tune half (a web and mobile app
developer's day: hosting and backend CLIs, payments, auth, mobile builds), in wordings of this
file's own (no corpus line is copied)."""

from __future__ import annotations

import pytest
from command_support import judged, rules


@pytest.mark.parametrize(
    "command",
    [
        "bundle exec fastlane ios upload_to_app_store --submit_for_review true",
        "bundle exec fastlane android release_lane",
        "poetry run vercel deploy --prod",
    ],
)
def test_a_project_runner_does_not_make_a_release_tool_the_projects_own_code(command: str) -> None:
    assert judged(command).decision != "allow"


def test_a_store_release_with_no_one_left_to_stop_it_and_a_certificate_nuke_are_denied() -> None:
    released = judged("bundle exec fastlane supply --track production --release_status completed")
    assert released.decision == "deny" and "store-release" in rules(released)
    nuked = judged("fastlane match nuke development")
    assert nuked.decision == "deny" and "signing-revoked" in rules(nuked)


def test_fastlane_lanes_named_for_testing_run_and_shipping_lanes_ask() -> None:
    assert judged("bundle exec fastlane android unit_tests").decision == "allow"
    assert judged("fastlane ios ship_tests").decision == "ask"


def test_trusting_dependencies_install_scripts_asks() -> None:
    analysis = judged("bun pm trust --all")
    assert analysis.decision == "ask" and "install-scripts-trusted" in rules(analysis)


@pytest.mark.parametrize(
    "command",
    [
        "npx astro dev --host 0.0.0.0",
        "npx vite preview --host",
        "pnpm run dev -- --hostname 0.0.0.0",
        "next dev -H 0.0.0.0 -p 4000",
    ],
)
def test_a_dev_server_listening_on_every_interface_asks(command: str) -> None:
    analysis = judged(command)
    assert analysis.decision == "ask" and "serves-network" in rules(analysis)


def test_a_dev_server_on_loopback_or_a_bare_port_is_allowed() -> None:
    assert judged("npx vite --host 127.0.0.1 --port 5174").decision == "allow"
    assert judged("pnpm run dev -- --port 4000").decision == "allow"


@pytest.mark.parametrize(
    "command",
    [
        "PLAYWRIGHT_BASE_URL=https://shop.example.com npx playwright test checkout.spec.ts",
        "npx cypress run --config baseUrl=https://admin.example.org",
    ],
)
def test_end_to_end_tests_aimed_at_a_deployed_site_ask(command: str) -> None:
    analysis = judged(command)
    assert analysis.decision == "ask" and "remote-test-target" in rules(analysis)


def test_end_to_end_tests_against_a_local_server_are_allowed() -> None:
    command = "CYPRESS_BASE_URL=http://localhost:4173 npx cypress run --browser chrome"
    assert judged(command).decision == "allow"


@pytest.mark.parametrize(
    "command",
    [
        "sed -i 's/maskAllInputs: true/maskAllInputs: false/' src/replay.ts",
        "sed -i '/Strict-Transport-Security/d' server/headers.js",
        "perl -pi -e 's/sendDefaultPii: false/sendDefaultPii: true/' src/monitoring.ts",
    ],
)
def test_an_edit_that_switches_off_a_protection_the_app_ships_with_asks(command: str) -> None:
    analysis = judged(command)
    assert analysis.decision == "ask" and "protection-off" in rules(analysis)


def test_an_ordinary_setting_edit_stays_a_workspace_write() -> None:
    assert judged("sed -i 's/debug: true/debug: false/' src/monitoring.ts").decision == "allow"


def test_a_tunnel_behind_its_own_login_asks_and_an_open_one_is_still_denied() -> None:
    assert judged("ngrok http 5173 --oauth google").decision == "ask"
    assert judged("cloudflared tunnel --url http://127.0.0.1:4321").decision == "deny"
    assert judged("ngrok tcp 5432 --basic-auth a:b").decision == "deny"


@pytest.mark.parametrize(
    "command",
    [
        "vercel dev --listen 4000",
        "netlify dev",
        "netlify functions:serve",
        "npx wrangler dev",
        "npx wrangler d1 execute shop-db --local --command 'select 1'",
        "npx wrangler deploy --dry-run",
        "firebase emulators:start --only firestore",
        "firebase apps:list",
        "supabase start",
        "supabase db reset",
        "supabase gen types typescript --local",
        "turso dev",
        "pscale connect shop main --port 3310",
        "npx convex codegen",
        "stripe listen --forward-to localhost:4242/webhooks",
        "stripe trigger payment_intent.succeeded",
        "auth0 apps list",
        "npx sentry-cli info",
        "npx expo run:android",
        "eas build --platform android --local",
        "pod outdated",
        "volta which node",
    ],
)
def test_local_and_read_verbs_of_app_platform_tools_are_allowed(command: str) -> None:
    assert judged(command).decision == "allow"


@pytest.mark.parametrize(
    "command",
    [
        "vercel deploy",
        "vercel env pull .env.local",
        "netlify deploy --prod",
        "netlify env:list",
        "npx wrangler deploy",
        "npx wrangler dev --remote",
        "npx wrangler d1 migrations apply shop-db --remote",
        "firebase deploy --only hosting",
        "supabase db push",
        "supabase secrets list",
        "npx convex deploy",
        "stripe login",
        "stripe customers create --email a@example.com",
        "auth0 users search --query email:x",
        "npx sentry-cli sourcemaps upload dist",
        "npx expo start --tunnel",
        "eas submit --platform android",
        "eas update --branch main",
        "pod trunk push Shop.podspec",
        "railway run npm start",
    ],
)
def test_what_deploys_publishes_or_reads_secrets_still_asks(command: str) -> None:
    assert judged(command).decision == "ask"


@pytest.mark.parametrize(
    "command",
    [
        "flyctl apps destroy shop-web --yes",
        "netlify sites:delete shop-site --force",
        "npx wrangler r2 bucket delete shop-media",
        "turso db destroy shop-main --yes",
        "supabase db reset --linked",
        "neonctl branches delete main --project-id calm-lake-1",
        "heroku apps:destroy shop-api --confirm shop-api",
    ],
)
def test_deleting_or_resetting_a_hosted_app_or_database_is_denied(command: str) -> None:
    analysis = judged(command)
    assert analysis.decision == "deny" and "hosted-destroy" in rules(analysis)


def test_deleting_a_preview_copy_or_a_development_branch_only_asks() -> None:
    assert judged("flyctl apps destroy shop-web-pr-311 --yes").decision == "ask"
    assert judged("neonctl branches delete feature-coupons").decision == "ask"


def test_payment_changes_with_a_live_key_are_denied_and_reads_ask() -> None:
    refund = judged("stripe refunds create --payment-intent pi_1 --api-key sk_live_abc")
    assert refund.decision == "deny" and "live-payments" in rules(refund)
    assert judged("stripe trigger invoice.paid --live").decision == "deny"
    assert judged("stripe charges list --live").decision == "ask"


@pytest.mark.parametrize(
    "command",
    [
        "vercel env add VITE_SUPABASE_SERVICE_ROLE_KEY production",
        "eas env:create --name EXPO_PUBLIC_API_SECRET --value abc123 --visibility plaintext",
        "netlify env:set REACT_APP_DB_PASSWORD hunter2",
        'netlify env:set STRIPE_KEY "$PRODUCTION_STRIPE_KEY" --context branch-deploy',
    ],
)
def test_a_secret_put_where_every_browser_or_preview_reads_it_is_denied(command: str) -> None:
    analysis = judged(command)
    assert analysis.decision == "deny" and "secret-public" in rules(analysis)


def test_a_public_variable_that_holds_no_secret_only_asks() -> None:
    assert judged("vercel env add NEXT_PUBLIC_SITE_URL preview").decision == "ask"


def test_tls_checks_switched_off_in_a_hosted_apps_settings_are_denied() -> None:
    assert judged("heroku config:set NODE_TLS_REJECT_UNAUTHORIZED=0 -a shop").decision == "deny"


def test_an_auth_providers_defences_switched_off_or_opened_to_any_site_are_denied() -> None:
    off = judged("auth0 protection suspicious-ip-throttling disable")
    assert off.decision == "deny" and "auth-protection-off" in rules(off)
    opened = judged("auth0 apps update abc123 --web-origins '*'")
    assert opened.decision == "deny" and "auth-open-redirect" in rules(opened)
    assert judged("auth0 apps update abc123 --callbacks https://shop.example.com/cb").decision == (
        "ask"
    )
