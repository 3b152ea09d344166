import { B2bClient, B2bClientInput, toPatchSchema } from '@hornada/domain';
import { b2bClients, products } from '../../db/schema';
import type { ResourceDefinition } from '../definition';
import { BASE_DATES } from './common';

export const b2bClientsResource: ResourceDefinition = {
  name: 'b2bClients',
  label: 'B2B client',
  table: b2bClients,
  input: B2bClientInput,
  patch: toPatchSchema(B2bClientInput),
  record: B2bClient,
  searchFields: ['businessName', 'contactName', 'taxId', 'email'],
  // The contact is a person; the business name is the company's own spelling ("S.A.S."), kept as typed.
  personNames: ['contactName'],
  sortFields: ['createdAt', 'updatedAt', 'businessName', 'paymentTermsDays'],
  filterFields: ['active', 'paymentTermsDays'],
  dateFields: BASE_DATES,
  references: [{ path: 'prices.*.productId', table: products, label: 'product' }],
};
