// The identity module's face: what the rest of the server imports from it (eslint.config.js forbids reaching past it).
export { awaitsOwner, releaseAddress } from './account-claims';
export { issueActionToken } from './action-tokens';
export { AccountEmailService } from './account-email.service';
export { GoogleSignIn } from './google.service';
export { DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemoAccounts } from './demo-accounts';
export { registerIdentityRoutes } from './identity.routes';
export { IdentityService } from './identity.service';
export { endSessionsOf } from './sessions';
