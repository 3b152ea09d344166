import { describe, expect, it } from 'vitest';
import { creatableRoles, rolePermissions, TEAM_ROLES } from './people';
import { ROLE } from './roles';

describe('people', () => {
  it('the team is every company role but customers', () => {
    expect([...TEAM_ROLES].sort()).toEqual(
      [ROLE.companyAdmin, ROLE.companyStaff, ROLE.deliveryAssistant, ROLE.productionAssistant].sort(),
    );
  });

  it('staff create customers only; admins any company role; others none', () => {
    expect(creatableRoles(ROLE.companyStaff)).toEqual([ROLE.companyCustomer]);
    expect(creatableRoles(ROLE.companyAdmin)).toHaveLength(5);
    expect(creatableRoles(ROLE.deliveryAssistant)).toEqual([]);
  });

  it('reads each role from the permission table', () => {
    const driver = rolePermissions(ROLE.deliveryAssistant);
    expect(driver.resources).toEqual([
      { resource: 'Pedidos', actions: ['ver (solo los asignados)', 'editar (solo los asignados)'] },
    ]);
    expect(driver.areas).toEqual(['Área de reparto']);
    const staff = rolePermissions(ROLE.companyStaff);
    expect(staff.resources.find((r) => r.resource === 'Usuarios')?.actions).toEqual([
      'ver (solo clientes)',
      'crear (solo clientes)',
    ]);
    expect(staff.resources.find((r) => r.resource === 'Configuración')?.actions).toEqual(['ver']);
  });
});
