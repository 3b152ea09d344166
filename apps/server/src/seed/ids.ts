export const DEMO_COMPANY_ID = 'la-espiga';
