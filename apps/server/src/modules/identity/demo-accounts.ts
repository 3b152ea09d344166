import { ROLE, type Role } from '@hornada/domain';
import type { WriteScope } from '../../resources/service';
import type { IdentityService } from './identity.service';

export const DEMO_PASSWORD = 'hornada-demo';

/** One account per role (docs/design.md §7), all with the password `hornada-demo`. */
export const DEMO_ACCOUNTS: { email: string; name: string; role: Role; inCompany: boolean }[] = [
  { email: 'root@hornada.test', name: 'Administración Hornada', role: ROLE.systemAdmin, inCompany: false },
  { email: 'admin@hornada.test', name: 'Marta Lucía Rincón', role: ROLE.companyAdmin, inCompany: true },
  { email: 'staff@hornada.test', name: 'Julián Ortega', role: ROLE.companyStaff, inCompany: true },
  { email: 'cliente@hornada.test', name: 'Ana María de la Torre', role: ROLE.companyCustomer, inCompany: true },
  { email: 'domicilios@hornada.test', name: 'Wilson Cárdenas', role: ROLE.deliveryAssistant, inCompany: true },
  { email: 'produccion@hornada.test', name: 'Rosa Elvira Patiño', role: ROLE.productionAssistant, inCompany: true },
];

/**
 * The demo accounts for the demo bakery, in the seed's transaction (`scope`): the catalogue and its
 * accounts commit together or not at all. Only called right after the demo catalogue is seeded.
 */
export async function seedDemoAccounts(identity: IdentityService, companyId: string, scope: WriteScope) {
  for (const a of DEMO_ACCOUNTS) {
    await identity.createUser(
      {
        email: a.email,
        password: DEMO_PASSWORD,
        name: a.name,
        role: a.role,
        companyId: a.inCompany ? companyId : null,
        emailVerified: true,
      },
      scope,
    );
  }
}
