/** Date fields every resource filters by. */
export const BASE_DATES = ['createdAt', 'updatedAt'] as const;
