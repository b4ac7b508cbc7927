import { useParams } from 'react-router-dom';
import OrderPage from './OrderPage';
import OrdersPage from './OrdersPage';

/** `/nftorders/:view`: the list's view, or one order when the segment is an order id. */
export default function OrdersScreen() {
  const { view = 'all' } = useParams();
  return view.startsWith('ord_') ? <OrderPage orderId={view} /> : <OrdersPage />;
}
