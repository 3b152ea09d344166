import { UnbuiltAreaPage } from '../../components/area-page';

export function Component() {
  return <UnbuiltAreaPage title="Mi perfil" />;
}
